// generated/dredd-transactions.json: Dredd's compilation of the bundled document into
// transactions (one per path, method and documented status), through Dredd's API. The conformance
// suite's dredd stage reads it and sends each transaction through its own runner; Dredd does not
// run, nor load, in a user's process.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { openapi } from '../core/document.ts';
import { dreddTransactionsPath } from '../paths.ts';
import { withoutKnownWarnings } from './quiet.ts';

interface ApiDescription {
  location: string;
  mediaType: string;
  annotations: object[];
  transactions: object[];
}
type DreddClass = new (
  config: object,
) => { prepareAPIdescriptions(callback: (error: Error | null, descriptions?: ApiDescription[]) => void): void };

/**
 * Dredd's own compilation of generated/openapi.json. Loading Dredd adds a process listener (its API
 * Blueprint parser exits on any unhandled rejection): the listeners it adds are taken off again,
 * so a test that builds the file keeps its process as it was. The warnings its old dependencies make
 * Node print as they load (known in quiet.ts) are not printed.
 */
function compileDocument(): Promise<ApiDescription[]> {
  const before = new Map(process.eventNames().map((event) => [event, process.listeners(event as NodeJS.Signals)]));
  let Dredd: DreddClass;
  try {
    Dredd = withoutKnownWarnings(() => createRequire(import.meta.url)('dredd') as DreddClass);
  } finally {
    for (const event of process.eventNames())
      for (const listener of process.listeners(event as NodeJS.Signals))
        if (!(before.get(event) ?? []).includes(listener)) process.removeListener(event, listener as () => void);
  }
  const configuration = {
    endpoint: 'http://127.0.0.1',
    apiDescriptions: [{ location: 'openapi.json', content: JSON.stringify(openapi) }],
    loglevel: 'silent',
    reporter: [],
  };
  return new Promise((resolve, reject) =>
    new Dredd(configuration).prepareAPIdescriptions((error, descriptions) =>
      error || !descriptions
        ? reject(error ?? new Error('Dredd compiled nothing'))
        : // What a run reads: the parsed document Dredd keeps beside the transactions is left out.
          resolve(
            descriptions.map(({ location, mediaType, annotations, transactions }) => ({
              location,
              mediaType,
              annotations,
              transactions,
            })),
          ),
    ),
  );
}

/** The file's text: Dredd's compilation of generated/openapi.json. */
export async function dreddTransactions(): Promise<string> {
  return `${JSON.stringify(await compileDocument(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(dreddTransactionsPath, await dreddTransactions());
  console.log('wrote generated/dredd-transactions.json');
}
