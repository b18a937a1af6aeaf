// Narrowing what came from outside (JSON bodies, records, program values) without asserting:
// each guard checks what it claims.

/** A record as the service's API holds and sends it: a JSON object, snake_case keys. */
export type ApiRecord = Record<string, unknown>;

/** A JSON object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A list of JSON objects, or none. */
export const recordsIn = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isRecord) : []);

/** The strings of a list (anything else: none). */
export const stringsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** An object's entries whose values are strings or null (a tag map, a tag merge patch). */
export const stringEntries = (value: unknown): Array<[string, string | null]> =>
  isRecord(value) ? Object.entries(value).filter((e): e is [string, string | null] => typeof e[1] === "string" || e[1] === null) : [];
