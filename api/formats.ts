// The value rules of the contract and the words that name them. Both sides say the same
// thing: the provider as `gatewayIp: must be an IP address`, the emulator as
// `{"gateway_ip": ["Must be an IP address."]}`.
import type { FieldType, Format, IntegerType, StringType } from "./contract/types";
import { isIpAddress, isUuid4, parseCidr } from "./net";
import { READ_ONLY_TAG_KEYS } from "./tags";

export const TAG_LIMIT = 255;

/** Characters (code points), as the service counts them, not UTF-16 units. */
export const charCount = (text: string): number => [...text].length;

const FORMAT_RULES: Record<Format, { message: string; ok: (value: string) => boolean }> = {
  uuid4: { message: "must be a UUID (version 4)", ok: isUuid4 },
  ip: { message: "must be an IP address", ok: (v) => isIpAddress(v) !== 0 },
  cidr: { message: "must be a network in CIDR form with no host bits set, e.g. 10.0.0.0/24", ok: (v) => parseCidr(v) !== undefined },
  urlPath: { message: "must start with /", ok: (v) => v.startsWith("/") },
  expectedCodes: {
    message: 'must be HTTP status codes (100-599) or ranges, comma-separated, like "200,202" or "200-204"',
    ok: (v) => v.split(",").every(isCodeOrRange),
  },
  dateTime: { message: "must be an ISO 8601 date-time such as 2026-05-23T05:07:31 or 2026-05-23T05:07:31Z", ok: isDateTime },
};

/** The rule a string of this format breaks, if any. */
export function formatProblem(format: Format, value: string): string | undefined {
  const rule = FORMAT_RULES[format];
  return rule.ok(value) ? undefined : rule.message;
}

export const NON_BLANK = "must not be empty";
export const NOT_NULL = "must not be null";
export const OBJECT = "must be an object";
/** A value a program must give. */
export const REQUIRED = "is required";
/** An input the resource does not have, after its name. */
export const NOT_AN_ARGUMENT = "is not an argument of this resource (check the spelling)";

/** What the service's framework says about a body, where it does not say a rule's words. */
export const SERVICE_WORDS = {
  required: "This field is required.",
  null: "This field may not be null.",
  unknown: "Unknown field.",
  fixed: "This field cannot be updated.",
  notAnObject: "Expected a JSON object.",
} as const;

/** "must be an IP address" -> "Must be an IP address." (the service's sentence style) */
export const sentence = (rule: string): string => `${rule[0].toUpperCase()}${rule.slice(1)}${/[.!?]$/.test(rule) ? "" : "."}`;

/** What a value of this type must be, said when it has another JSON type. */
export function typeMessage(t: FieldType): string {
  switch (t.kind) {
    case "string":
      return t.enum ? enumMessage(t.enum) + aliasNote(t) : t.format ? FORMAT_RULES[t.format].message : "must be a string";
    case "integer":
      return t.enum ? enumMessage(t.enum) : `must be ${integerRange(t)}`;
    case "number":
      return `must be a positive number${t.unit ? ` of ${t.unit}` : ""}`;
    case "boolean":
      return "must be true or false";
    case "tags":
      return "must be an object of string keys to string values";
    case "array":
      return "must be an array";
    case "object":
      return OBJECT;
  }
}

/** A number with a fraction where an integer belongs. */
export function fractionMessage(t: IntegerType): string {
  return `${typeMessage(t)} (no fractions)`;
}

/** A member name (quota entry) that the object does not have. */
export function memberMessage(what: string, example: string): string {
  return `is not a ${what} (names are like ${example})`;
}

/** " (i440 is pc)": other spellings an enum takes. */
function aliasNote(t: StringType): string {
  const aliases = Object.entries(t.aliases ?? {});
  return aliases.length === 0 ? "" : ` (${aliases.map(([alias, value]) => `${alias} is ${value}`).join(", ")})`;
}

/** The values a string enum takes: its own and their other spellings. */
export function enumValues(t: StringType): string[] {
  return [...(t.enum ?? []), ...Object.keys(t.aliases ?? {})];
}

export function enumMessage(values: readonly (string | number)[]): string {
  return values.length === 2 && typeof values[0] === "number"
    ? `must be ${values[0]} or ${values[1]}`
    : `must be one of: ${values.join(", ")}`;
}

/** "an integer from 0 to 86400000 milliseconds" */
export function integerRange(t: IntegerType): string {
  // An id the service assigns has no upper bound a program could reach.
  if (t.min === 1 && t.max === Number.MAX_SAFE_INTEGER) return "a positive integer";
  return `an integer from ${t.min} to ${t.max}${t.unit ? ` ${t.unit}` : ""}`;
}

/** The range rule an integer breaks, if any. */
export function integerProblem(t: IntegerType, n: number | bigint): string | undefined {
  if (t.enum) return t.enum.includes(Number(n)) ? undefined : enumMessage(t.enum);
  if (n < t.min) return `must be at least ${t.min} (${integerRange(t)})`;
  if (n > t.max) return t.int64 ? "must fit in a signed 64-bit integer" : `must be at most ${t.max} (${integerRange(t)})`;
  return undefined;
}

export const TAG_KEY = `tag keys must be 1 to ${TAG_LIMIT} characters`;
export const TAG_VALUE_TYPE = "tag values must be strings";
/** In a merge patch of tags, where null removes a key. */
export const TAG_VALUE_TYPE_MERGE = "tag values must be strings, or null to remove the tag";
export const TAG_VALUE = `tag values must be at most ${TAG_LIMIT} characters`;

export function tagKeyProblem(key: string): string | undefined {
  if (READ_ONLY_TAG_KEYS.includes(key)) return `tag ${key} is read-only: the service sets it`;
  return key.length > 0 && charCount(key) <= TAG_LIMIT ? undefined : TAG_KEY;
}

export function tagValueProblem(value: string): string | undefined {
  return charCount(value) <= TAG_LIMIT ? undefined : TAG_VALUE;
}

/** "duplicates members[0] (same address and port)" */
export function duplicateMessage(earlier: string, unique: "ip" | "member"): string {
  return `duplicates ${earlier}${unique === "member" ? " (same address and port)" : ""}`;
}

/** "200", "200-204": HTTP status codes 100..599, ranges ascending. */
function isCodeOrRange(part: string): boolean {
  const match = /^(\d{3})(?:-(\d{3}))?$/.exec(part);
  if (!match) return false;
  const low = Number(match[1]);
  const high = Number(match[2] ?? match[1]);
  return low >= 100 && high <= 599 && low <= high;
}

// ISO 8601 date and time; seconds, fraction and zone optional (the service itself writes
// "2026-05-23T05:07:31", without zone).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2})(?::?(\d{2}))?)?$/;

/** The pattern admits 2026-02-30 or 25:00; the calendar and the clock do not. */
function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second, zoneHour, zoneMinute] = match.slice(1).map((part) => Number(part ?? 0));
  // setUTCFullYear, unlike Date.UTC, leaves years below 100 alone; an impossible day rolls over.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const realDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return realDay && hour <= 23 && minute <= 59 && second <= 59 && zoneHour <= 23 && zoneMinute <= 59;
}
