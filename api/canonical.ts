// One spelling per value, as the service stores it: `2001:DB8:0:0::/64` is `2001:db8::/64`,
// an uppercase uuid lowercase, a date-time with a zone the same instant in UTC without
// one, an int64 its decimal digits, a list whose order means nothing in one order, and tags
// the users' key -> value (records list them with the service's read-only ones).
// The emulator stores what it is sent in this form; the provider compares in it, so a
// value the service merely re-spelled is never a change.
import { isRecord } from "./guards";
import type { FieldType, StringType } from "./contract/types";
import { canonical } from "./net";
import { splitTags } from "./tags";

/** The zone of a date-time: `Z`, or an offset `+02:00`, `+0200` or `+02` (all ISO 8601). */
const ZONE = /(?:Z|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * `2026-05-23T07:07:31+02:00` (or `+0200`, `+02`) -> `2026-05-23T05:07:31`; zone-less text is
 * UTC already. Offsets are spelled out as `+HH:MM` first: JavaScript's Date reads no other.
 */
export function canonicalDateTime(text: string): string {
  const time = text.slice(10); // after the date, whose own "-" is no offset
  const zone = ZONE.exec(time);
  const iso = !zone ? `${text}Z` : zone[1] ? `${text.slice(0, text.length - zone[0].length)}${zone[1]}${zone[2]}:${zone[3] ?? "00"}` : text;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return text;
  return new Date(ms).toISOString().replace(/\.000Z$|Z$/, "");
}

/**
 * How enum values are spelled: `spec` as the spec spells them (what comparisons use, and the
 * spec's calls send), `record` as the service's records (and its reference calls) do.
 */
export type Spelling = "spec" | "record";

/** An enum value in one spelling (`i440` and `pc` are one machine type). */
export function spelled(value: string, type: StringType, spelling: Spelling = "spec"): string {
  const spec = type.aliases?.[value] ?? value;
  return spelling === "record" ? (type.recordSpelling?.[spec] ?? spec) : spec;
}

/**
 * The canonical form of a value of this type. `key` says how the value's object keys are
 * named on this side (camelCase for the provider, snake_case on the wire); `spelling`, how
 * enum values are spelled (the emulator stores records' spelling).
 */
export function canonicalValue(
  value: unknown,
  type: FieldType,
  key: (camel: string) => string = (k) => k,
  spelling: Spelling = "spec",
): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "string":
      if (typeof value === "string" && type.enum) return spelled(value, type, spelling);
      if (typeof value !== "string" || !type.format) return value;
      if (type.format === "dateTime") return canonicalDateTime(value);
      return type.format === "ip" || type.format === "cidr" || type.format === "uuid4" ? canonical(type.format, value) : value;
    case "integer":
      return type.int64 && (typeof value === "number" || typeof value === "bigint" || typeof value === "string") ? String(value) : value;
    case "array": {
      if (!Array.isArray(value)) return value;
      const items = value.map((v) => canonicalValue(v, type.items, key, spelling));
      return type.unordered ? sortedItems(items, type.items, key) : items;
    }
    case "object": {
      if (typeof value !== "object" || Array.isArray(value)) return value;
      const out: Record<string, unknown> = isRecord(value) ? { ...value } : {};
      for (const [name, field] of Object.entries(type.fields)) {
        const k = key(name);
        if (out[k] !== undefined) out[k] = canonicalValue(out[k], field.type, key, spelling);
      }
      return out;
    }
    case "tags":
      // A record's list (and a state written by an older provider from one) is the users' tags.
      return Array.isArray(value) ? splitTags(value).tags : value;
    default:
      return value;
  }
}

/** Items in one order: by their fields in the order the contract lists them. */
function sortedItems(items: unknown[], type: FieldType, key: (camel: string) => string): unknown[] {
  const fields = type.kind === "object" ? Object.keys(type.fields).map(key) : [];
  const sortKey = (item: unknown) =>
    isRecord(item) && fields.length > 0 ? JSON.stringify(fields.map((f) => item[f] ?? null)) : JSON.stringify(item);
  return [...items].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));
}
