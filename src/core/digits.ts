// Request bodies that carry integers a JS number cannot hold exactly (int64 past 2^53): such an
// integer is a `Digits`, written into the JSON text as its digits (by json-int64.ts, which writes
// BigInts the same way).
import { toJson } from './json-int64.ts';

export type Json = null | boolean | number | string | Digits | Json[] | { [k: string]: Json };

export class Digits {
  constructor(readonly digits: string) {}
}

/**
 * A deep copy of a body that keeps each `Digits` as it is (structuredClone makes one a plain
 * object, written as {"digits": ...}).
 */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== 'object' || value instanceof Digits) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copyJson(v)])) as T;
}

/** The JSON text of a body, each `Digits` written as its digits. */
export const serialize = (body: Json): string => toJson(body, (v) => (v instanceof Digits ? v.digits : undefined));

/** The body as a validator reads it (each `Digits` as the nearest number). */
export const parsed = (body: Json): unknown => JSON.parse(serialize(body));
