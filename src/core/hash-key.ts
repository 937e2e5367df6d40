// The form a key is kept in where it must be remembered but not kept as itself (a requestId, a credential): 22
// characters of its SHA-256 (base64url). The sandbox's duplicate window and the suite's rules over time both keep these.
import { hash } from 'node:crypto';

export const hashKey = (key: string) => hash('sha256', key, 'base64url').slice(0, 22);
