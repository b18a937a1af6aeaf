// Wire JSON that keeps every integer exact. Quota limits and usages go up to
// 9223372036854775807, past Number.MAX_SAFE_INTEGER, so JSON.parse would silently round
// them. lossless-json parses unsafe integers to bigint here (safe ones stay numbers) and
// writes bigints back digit for digit.
import { isInteger, isLosslessNumber, LosslessNumber, parse, stringify } from "lossless-json";
import { isRecord } from "./guards";

function parseNumber(text: string): number | bigint | LosslessNumber {
  const value = Number(text);
  if (isInteger(text)) return Number.isSafeInteger(value) ? value : BigInt(text);
  // "9007199254740993.0" or "9.007199254740993e15" as a double is 9007199254740992: an
  // integer that passes integer checks with a digit silently changed. Beyond 2^53 such a
  // literal stays as its text (a LosslessNumber, written back verbatim), so it is no integer.
  return Math.abs(value) > Number.MAX_SAFE_INTEGER ? new LosslessNumber(text) : value;
}

/** Parses wire JSON; integers beyond 2^53 come back as bigint. */
export function parseJson(text: string): unknown {
  return parse(text, null, parseNumber);
}

/** Writes wire JSON; bigints are written as exact integers. */
export function stringifyJson(value: unknown, space?: number): string {
  const text = stringify(value, null, space);
  if (text === undefined) throw new TypeError("value cannot be written as JSON");
  return text;
}

/**
 * A JSON object (guards.ts isRecord) among values parseJson may give: an integer past 2^53
 * written with a fraction or exponent stays a LosslessNumber, an object that is a number.
 */
export const isJsonRecord = (value: unknown): value is Record<string, unknown> => isRecord(value) && !isLosslessNumber(value);

/**
 * `value` with every string in it made one piece, for a parsed answer held a while. The parser
 * builds each string a character at a time, and V8 keeps such a string as a chain of its
 * pieces: a uuid read from an answer holds about 1 KB where its flat copy holds about 70 bytes
 * (a subnet record of a list, 7 KB against 2). Reading a character makes V8 join the chain
 * into one string in place, which the next collection keeps alone. Returns `value`, changed in
 * place.
 */
export function flatStrings<T>(value: T): T {
  if (typeof value === "string") value.charCodeAt(0);
  else if (Array.isArray(value)) value.forEach(flatStrings);
  else if (isJsonRecord(value)) Object.values(value).forEach(flatStrings);
  return value;
}
