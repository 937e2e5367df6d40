// The traffic readers, one module a format: a new format is its module and its entry in `readers`.
import type { TrafficLimits } from './format.ts';
import { har } from './har.ts';
import { ndjson } from './ndjson.ts';

export type { TrafficLimits } from './format.ts';
export const readers = [har, ndjson] as const;
export type TrafficFormat = (typeof readers)[number]['name'];

/** The format of a file: as given, else that of the first reader that claims its name, else the last reader's. */
export const trafficFormat = (path: string, format?: TrafficFormat): TrafficFormat =>
  format ?? (readers.find((r) => r.detect(path)) ?? readers.at(-1)!).name;

/** The exchanges of a file, in file order, read by its format's reader. */
export const readTraffic = (path: string, format?: TrafficFormat, limits?: TrafficLimits) =>
  readers.find((r) => r.name === trafficFormat(path, format))!.read(path, limits);
