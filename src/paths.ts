// Where the project's build outputs live, resolved from this file so every command works from any
// working directory.
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);

export const projectRoot = fileURLToPath(root);
export const bundledDocumentPath = fileURLToPath(new URL('generated/openapi.json', root));
export const docsPagePath = fileURLToPath(new URL('dist/docs/index.html', root));
/** Dredd's compilation of the bundled document into transactions (`npm run build:generated`). */
export const dreddTransactionsPath = fileURLToPath(new URL('generated/dredd-transactions.json', root));
