// Code samples for the docs page, made from each operation's first named success example: curl,
// the typed client and plain fetch. Redoc shows them as `x-codeSamples`. They read the base URL
// and the credentials from the environment (BASE_URL, API_KEY, INTEGRATOR_TOKEN), never carry a
// secret, and the tests run every one against the sandbox, so none can rot. Each starts with comment
// lines saying what each variable is; the page's "Code samples" section (samplesSection, added to
// the introduction by build.ts) says where each comes from, for the service and for the sandbox.
import { openapi } from '../core/document.ts';
import { apiKeyHeader } from '../core/meta.ts';
import { successExamples, documentOperations, type Operation } from '../core/examples.ts';
import { loadFixtures } from '../sandbox/fixtures.ts';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The environment variable a sample reads each credential from. */
export const sampleEnv = { baseUrl: 'BASE_URL', apiKey: 'API_KEY', integratorToken: 'INTEGRATOR_TOKEN' } as const;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The title of the introduction's section that says where each variable comes from. */
export const samplesSectionTitle = 'Code samples';

/**
 * The comment lines a sample starts with (without the comment marker): what each variable it reads is, each line
 * short enough for the page's sample panel, and where to read more.
 */
export function sampleHeader(op: Operation): string[] {
  return [
    `${sampleEnv.baseUrl}: the service's base URL, or the sandbox's`,
    ...(op.security.includes('apiKey')
      ? [`${sampleEnv.apiKey}: the account's API key (header ${apiKeyHeader})`]
      : [
          `${sampleEnv.integratorToken}: a token of a user with the`,
          '  INTEGRATOR permission (Authorization: Bearer)',
        ]),
    `Where each comes from: "${samplesSectionTitle}" in the docs`,
  ];
}

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
        ...sampleHeader(op).map((line) => `# ${line}`),
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
        ...sampleHeader(op).map((line) => `// ${line}`),
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
        ...sampleHeader(op).map((line) => `// ${line}`),
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

type Obj = Record<string, unknown>;

/**
 * The introduction's section on the samples' variables (markdown): what each is and where it comes from, for the
 * service (what the description and the public docs show, marked as the document marks them) and for the sandbox
 * (its own URL, its default fixtures' credentials). It lives in the page's copy of the document, so openapi/ stays
 * as released.
 */
export function samplesSection(): string {
  const fixtures = loadFixtures();
  const summaries = (scheme: string) =>
    documentOperations()
      .filter((op) => op.security.includes(scheme))
      .map((op) => {
        const operation = (openapi.paths as Record<string, Obj>)[op.path]![op.method.toLowerCase()] as Obj;
        return String(operation.summary);
      })
      .join(', ');
  const servers = ((openapi.servers ?? []) as Array<{ url: string }>).map((s) => `\`${s.url}\``);
  const withBalance = fixtures.apiKeys.filter((k) => k.balance > 0).map((k) => `\`${k.key}\``);
  const without = fixtures.apiKeys.filter((k) => k.balance <= 0).map((k) => `\`${k.key}\``);
  return [
    `## ${samplesSectionTitle}`,
    "Each operation's code samples (curl, the typed client `@messaging-contract/client` and fetch) read where to",
    'send and the credentials from environment variables; no sample holds a value of them.',
    '',
    `- \`${sampleEnv.baseUrl}\`: the service's base URL (\`{base_url}\` in the service's description), with no`,
    `  trailing \`/\`. For the service, the server of your region: ${servers.join(', ')} [public docs]; Close`,
    '  threads goes to the Chat Center host of your installation, which differs per installation [public docs].',
    '  For the sandbox, its own URL: the one `npx messaging-sandbox` prints when it starts (`sandbox:',
    '  http://127.0.0.1:4020/api/...` means `http://127.0.0.1:4020`), or `url` of `startSandbox()` in a test;',
    '  when the sandbox serves this page, the address of this page without its path.',
    `- \`${sampleEnv.apiKey}\`: the account's API key, sent in the \`${apiKeyHeader}\` header (${summaries('apiKey')}).`,
    "  A wrong or expired key gives 401 `auth-error`; how keys are issued is not specified. The sandbox's, with",
    `  its default fixtures: ${withBalance.join(', ')}${without.length ? ` (${without.join(', ')} is an account without balance)` : ''}.`,
    `- \`${sampleEnv.integratorToken}\`: a token of a user with the permission \`INTEGRATOR\``,
    `  (${summaries('integratorToken')}). It is sent as \`Authorization: Bearer <token>\` and comes from`,
    "  `POST /api/auth/login` with `{login, password}` [public docs]. The sandbox's, with its default fixtures:",
    `  ${fixtures.integratorTokens.map((t) => `\`${t}\``).join(', ')}.`,
  ].join('\n');
}
