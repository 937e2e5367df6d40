// Code samples for the docs page, made from each operation's first named success example: curl,
// the typed client and plain fetch. Redoc shows them as `x-codeSamples`. They read the base URL
// and the credentials from the environment (BASE_URL, API_KEY, INTEGRATOR_TOKEN), never carry a
// secret, and the tests run every one against the sandbox, so none can rot.
import { apiKeyHeader } from '../core/meta.ts';
import { successExamples, documentOperations, type Operation } from '../core/examples.ts';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The environment variable a sample reads each credential from. */
export const sampleEnv = { baseUrl: 'BASE_URL', apiKey: 'API_KEY', integratorToken: 'INTEGRATOR_TOKEN' } as const;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The example a sample sends: the operation's first paired success example. */
export function sampleExample(op: Operation) {
  const pair = successExamples(op)[0];
  if (!pair) throw new Error(`${op.operationId} has no named success example to make samples from`);
  return pair;
}

/** curl, the typed client and fetch for one operation. */
export function codeSamples(op: Operation): CodeSample[] {
  const pair = sampleExample(op);
  const body = pair.requestBody as Record<string, unknown>;
  const usesKey = op.security.includes('apiKey');
  const credential = usesKey
    ? `${apiKeyHeader}: $${sampleEnv.apiKey}`
    : `authorization: Bearer $${sampleEnv.integratorToken}`;
  // A requestId is taken once: the client fills a new one in itself, and curl and fetch make their own.
  const freshId = typeof body.requestId === 'string';
  const { requestId: _drop, ...clientBody } = body;
  const forClient = freshId ? clientBody : body;
  // Bodies one field a line: no line of a sample runs far past the docs page's sample panel.
  const json = JSON.stringify(body, null, 2);
  const idField = `"requestId": ${JSON.stringify(body.requestId)}`;
  const curlData = freshId
    ? `${shellQuote(`${json.slice(0, json.indexOf(idField))}"requestId": "`)}"$REQUEST_ID"${shellQuote(`"${json.slice(json.indexOf(idField) + idField.length)}`)}`
    : shellQuote(json);
  const indented = (value: unknown) => JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
  const fetchBody = freshId ? `{\n    requestId: crypto.randomUUID(),${indented(clientBody).slice(1)}` : indented(body);
  const headerJs = usesKey
    ? `'${apiKeyHeader}': process.env.${sampleEnv.apiKey}`
    : `authorization: \`Bearer \${process.env.${sampleEnv.integratorToken}}\``;
  return [
    {
      lang: 'Shell',
      label: 'curl',
      source: [
        ...(freshId
          ? [
              '# a new requestId for each message',
              'REQUEST_ID=$(uuidgen 2>/dev/null ||',
              '  cat /proc/sys/kernel/random/uuid)',
            ]
          : []),
        `curl -sS -X ${op.method} "$${sampleEnv.baseUrl}${op.path}" \\`,
        `  -H 'content-type: application/json' \\`,
        `  -H "${credential}" \\`,
        `  --data-raw ${curlData}`,
      ].join('\n'),
    },
    {
      lang: 'TypeScript',
      label: '@messaging-contract/client',
      source: [
        `import { createMessagingClient } from '@messaging-contract/client';`,
        ``,
        `const client = createMessagingClient({`,
        `  baseUrl: process.env.${sampleEnv.baseUrl}!,`,
        `  ${usesKey ? `apiKey: process.env.${sampleEnv.apiKey}` : `integratorToken: process.env.${sampleEnv.integratorToken}`},`,
        `});`,
        // The client's methods are named after the operationIds.
        `const result = await client.${op.operationId}(${JSON.stringify(forClient, null, 2)});`,
        `console.log(result);`,
      ].join('\n'),
    },
    {
      lang: 'JavaScript',
      label: 'fetch',
      source: [
        `const url = \`\${process.env.${sampleEnv.baseUrl}}${op.path}\`;`,
        `const response = await fetch(url, {`,
        `  method: '${op.method}',`,
        `  headers: {`,
        `    'content-type': 'application/json',`,
        `    ${headerJs},`,
        `  },`,
        `  body: JSON.stringify(${fetchBody}),`,
        `});`,
        `console.log(response.status, await response.json());`,
      ].join('\n'),
    },
  ];
}

/** Every operation's samples, by operationId. */
export const allCodeSamples = () => new Map(documentOperations().map((op) => [op.operationId, codeSamples(op)]));
