// Reading a JSON file a user names (a vars file, a fixtures file): any failure, unreadable or not
// JSON, is one error that starts with the label (the flag or the option, and the path).
import { readFileSync } from 'node:fs';

export function readJsonFile(
  path: string | URL,
  label: string,
  toError: (message: string) => Error = (m) => new Error(m),
  parse: (text: string) => unknown = JSON.parse,
): unknown {
  try {
    return parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw toError(`${label}: ${(error as Error).message}`);
  }
}
