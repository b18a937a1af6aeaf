// Camel outside, snake inside: the one mapping between Pulumi values (camelCase keys, int64
// as decimal strings) and the wire (snake_case keys, exact integers), driven by the
// contract's types. Tag keys are user data and are never renamed.
import { isLosslessNumber } from "lossless-json";
import type { FieldType } from "../../api/contract";
import { toCamel, toSnake } from "../../api/names";
import { splitTags } from "../../api/tags";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

/** A Pulumi value of this type as the wire wants it. */
export function toWire(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "integer":
      return type.int64 && (typeof value === "string" || typeof value === "number") ? BigInt(value) : value;
    case "array":
      return Array.isArray(value) ? value.map((v) => toWire(v, type.items)) : value;
    case "object": {
      if (!isObject(value)) return value;
      const out: Json = {};
      for (const [key, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const field = Object.hasOwn(type.fields, key) ? type.fields[key].type : type.members?.type;
        out[toSnake(key)] = field ? toWire(v, field) : snakeKeys(v);
      }
      return out;
    }
    default:
      return value;
  }
}

/** A wire value of this type as Pulumi shows it; fields the contract does not name keep their data, camelCased. */
export function fromWire(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "integer":
      return type.int64 ? String(value) : plain(value);
    case "array":
      return Array.isArray(value) ? value.map((v) => fromWire(v, type.items)) : plain(value);
    case "object": {
      if (!isObject(value)) return plain(value);
      const out: Json = {};
      for (const [wire, v] of Object.entries(value)) {
        const key = toCamel(wire);
        const field = Object.hasOwn(type.fields, key)
          ? type.fields[key].type
          : type.members?.names.includes(wire)
            ? type.members.type
            : undefined;
        out[key] = field ? fromWire(v, field) : plain(camelKeys(v));
      }
      return out;
    }
    case "tags":
      // Records carry a list of {key, value, read_only}; the users' tags are the editable ones.
      return splitTags(value).tags;
    default:
      return plain(value);
  }
}

/** Values Pulumi can store: bigints (and beyond-2^53 literals) as decimal strings, no undefined. */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint" || isLosslessNumber(value)) return String(value);
  if (Array.isArray(value)) return value.map(plain);
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, plain(v)]),
    );
  return value;
}

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
  return value;
}

/** Deep camelCase of keys, for record data the contract does not describe (schedules, ids). */
export const camelKeys = (value: unknown): unknown => mapKeys(value, toCamel);
/** Deep snake_case of keys; the inverse of camelKeys. */
export const snakeKeys = (value: unknown): unknown => mapKeys(value, toSnake);

/** Tags as a merge patch: removed keys are sent as null. */
export function tagPatch(olds: unknown, news: unknown): Record<string, string | null> {
  const patch: Record<string, string | null> = { ...((news ?? {}) as Record<string, string>) };
  // An older state may hold a record's tag list: its users' tags are what was set.
  const old = Array.isArray(olds) ? splitTags(olds).tags : ((olds ?? {}) as Record<string, string>);
  for (const key of Object.keys(old)) if (!(key in patch)) patch[key] = null;
  return patch;
}
