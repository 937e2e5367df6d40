// generated/dredd-transactions.json: Dredd's compilation of the bundled document into
// transactions, which the conformance suite's dredd stage reads instead of compiling at every run.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compileDocument } from '../conformance/dredd/adapter.ts';
import { dreddTransactionsPath } from '../paths.ts';

/** The file's text: Dredd's compilation of generated/openapi.json. */
export async function dreddTransactions(): Promise<string> {
  return `${JSON.stringify(await compileDocument(), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(dreddTransactionsPath, await dreddTransactions());
  console.log('wrote generated/dredd-transactions.json');
}
