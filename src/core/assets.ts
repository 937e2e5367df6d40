// Files a package ships beside its bundle (the docs page, the document, Dredd's hooks). The package
// build (src/build/package.ts) defines MESSAGING_CONTRACT_BUNDLE; from the repository's sources the
// same files are where the repository keeps them.
import { fileURLToPath } from 'node:url';

declare const MESSAGING_CONTRACT_BUNDLE: boolean | undefined;
const inBundle = typeof MESSAGING_CONTRACT_BUNDLE !== 'undefined' && MESSAGING_CONTRACT_BUNDLE;

/** The path of a file relative to the calling module: `bundled` inside dist/, `source` in the repository. */
export function assetPath(moduleUrl: string, paths: { bundled: string; source: string }): string {
  return fileURLToPath(new URL(inBundle ? paths.bundled : paths.source, moduleUrl));
}
