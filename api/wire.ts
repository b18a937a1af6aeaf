// Camel outside, snake inside: the one mapping between Pulumi values (camelCase keys, int64
// as decimal strings) and the wire (snake_case keys, exact integers), driven by the
// contract's types. Tag keys are user data and are never renamed.
import { isLosslessNumber } from "lossless-json";
import { type Spelling, spelled } from "./canonical";
import type { Field, FieldTable, FieldType } from "./contract";
import { isJsonRecord } from "./json";
import { toCamel, toSnake } from "./names";
import { splitTags } from "./tags";

type Json = Record<string, unknown>;

/**
 * Which of a record's tags are its users': the wire knows no tag of a client's own, so a caller
 * that keeps one on records (the provider's create mark) passes the filter that leaves it out.
 */
export type UsersTags = (tags: Record<string, string>) => Record<string, string>;
const everyTag: UsersTags = (tags) => tags;

/**
 * A Pulumi value of this type as the wire wants it; enum values in the spelling of the call
 * (`spec`: the spec's calls; `record`: the reference's updates, which spell as records do;
 * none: as given).
 */
export function toWire(value: unknown, type: FieldType, spelling?: Spelling): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "string":
      return typeof value === "string" && type.enum && spelling ? spelled(value, type, spelling) : value;
    case "integer":
      return type.int64 && (typeof value === "string" || typeof value === "number") ? BigInt(value) : value;
    case "array":
      return Array.isArray(value) ? value.map((v) => toWire(v, type.items, spelling)) : value;
    case "object": {
      if (!isJsonRecord(value)) return value;
      const out: Json = {};
      for (const [key, v] of Object.entries(value)) {
        if (v === undefined) continue;
        const field = Object.hasOwn(type.fields, key) ? type.fields[key].type : type.members?.type;
        // A member the contract does not know is under its wire name already (fromWire), which toSnake keeps.
        out[toSnake(key)] = field ? toWire(v, field, spelling) : snakeKeys(v);
      }
      return out;
    }
    default:
      return value;
  }
}

/** Fields of nested objects the service sets itself although the table lists them (a pool member's id and status). */
export const SERVICE_SET: Readonly<Record<string, readonly string[]>> = { members: ["id", "operatingStatus"] };

/**
 * Converting for a program's source (`cims-import`, `pulumi import`) rather than for outputs:
 * only what a program may write is kept (no field the service sets, no null where a field
 * takes none, no member the contract does not know: those are noted in `notes`).
 */
export interface ForProgram {
  notes: string[];
  /** Where the value is, for notes: `lastMessage.globalQuotas`. */
  where: string;
  /** Fields of the object (or of each object of the list) that the service sets. */
  skip?: readonly string[];
}

const takesNull = (f: Field) => f.nullable === true || f.removedByDelete === true;

/**
 * A wire value of this type as Pulumi shows it; fields the contract does not name keep their
 * data, camelCased. Members the contract does not know (a quota the service added since) are
 * kept verbatim: their wire name, and their numbers exact. With `program`, the value as a
 * program would write it (see ForProgram): the one conversion from a record to program values.
 */
export function fromWire(value: unknown, type: FieldType, program?: ForProgram, usersTags: UsersTags = everyTag): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "integer":
      return type.int64 ? String(value) : plain(value);
    case "array":
      return Array.isArray(value)
        ? value.map((v, i) => fromWire(v, type.items, program && { ...program, where: `${program.where}[${i}]` }, usersTags))
        : plain(value);
    case "object": {
      if (!isJsonRecord(value)) return plain(value);
      if (program) return { ...programFields(type.fields, value, program, usersTags), ...programMembers(type, value, program, usersTags) };
      const out: Json = {};
      for (const [wire, v] of Object.entries(value)) {
        const key = toCamel(wire);
        if (Object.hasOwn(type.fields, key)) out[key] = fromWire(v, type.fields[key].type, undefined, usersTags);
        else if (type.members?.names.includes(wire)) out[key] = fromWire(v, type.members.type, undefined, usersTags);
        else if (type.members) out[wire] = fromWire(v, type.members.type, undefined, usersTags);
        else out[key] = plain(camelKeys(v));
      }
      return out;
    }
    case "tags":
      // Records carry a list of {key, value, read_only}; the users' tags are the editable ones
      // (a create's mark, should one be left on the record, is the provider's, not the user's).
      return usersTags(splitTags(value).tags);
    default:
      return plain(value);
  }
}

/**
 * The table's fields a record holds, as a program writes them, camelCased, in the table's
 * order: create-only instructions the records do not carry and what only the service sets are
 * left out.
 */
export function programFields(fields: FieldTable, record: Json, program: ForProgram, usersTags: UsersTags = everyTag): Json {
  const out: Json = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.notInRecord || field.set === "read" || program.skip?.includes(name)) continue;
    const raw = record[field.recordName ?? toSnake(name)];
    if (raw === undefined || (raw === null && !takesNull(field))) continue;
    const where = program.where ? `${program.where}.${name}` : name;
    out[name] = fromWire(raw, field.type, { notes: program.notes, where, skip: SERVICE_SET[name] }, usersTags);
  }
  return out;
}

/** An object's members the contract knows, as a program writes them; the others are noted and left out. */
function programMembers(type: Extract<FieldType, { kind: "object" }>, value: Json, program: ForProgram, usersTags: UsersTags): Json {
  const out: Json = {};
  if (!type.members) return out;
  const known = new Set(Object.entries(type.fields).map(([name, f]) => f.recordName ?? toSnake(name)));
  for (const [wire, v] of Object.entries(value)) {
    if (known.has(wire) || v === undefined) continue;
    const where = `${program.where}.${wire}`;
    if (type.members.names.includes(wire)) out[toCamel(wire)] = fromWire(v, type.members.type, { notes: program.notes, where }, usersTags);
    else program.notes.push(`${where}: not a ${type.members.what} the contract knows; left out`);
  }
  return out;
}

/** An object's values as Pulumi can store them (see plain). */
export function plainRecord(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, plain(v)]),
  );
}

/** Values Pulumi can store: bigints (and beyond-2^53 literals) as decimal strings, no undefined. */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint" || isLosslessNumber(value)) return String(value);
  if (Array.isArray(value)) return value.map(plain);
  if (isJsonRecord(value))
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, plain(v)]),
    );
  return value;
}

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (isJsonRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
  return value;
}

/** Deep camelCase of keys, for record data the contract does not describe (schedules, ids). */
export const camelKeys = (value: unknown): unknown => mapKeys(value, toCamel);
/** Deep snake_case of keys; the inverse of camelKeys. */
export const snakeKeys = (value: unknown): unknown => mapKeys(value, toSnake);

const stringValues = (o: Json): Record<string, string> =>
  Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string"));

/**
 * Tags as a merge patch of what changed from `olds` to `news`: new and changed keys set,
 * removed keys sent as null. A key both have alike is not sent, and a key neither has (added
 * outside Pulumi) is not named: the service keeps either as it holds it, unless a refresh
 * puts it into `olds` and the program then removes or changes it.
 */
export function tagPatch(olds: unknown, news: unknown): Record<string, string | null> {
  const next = isJsonRecord(news) ? stringValues(news) : {};
  // An older state may hold a record's tag list: its users' tags are what was set.
  const old = Array.isArray(olds) ? splitTags(olds).tags : isJsonRecord(olds) ? stringValues(olds) : {};
  const patch: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(next)) if (!Object.hasOwn(old, key) || old[key] !== value) patch[key] = value;
  for (const key of Object.keys(old)) if (!Object.hasOwn(next, key)) patch[key] = null;
  return patch;
}

/** Whether a key of an object of this type is a member the contract does not know (by its Pulumi-side name). */
function unknownMember(type: Extract<FieldType, { kind: "object" }>, key: string): boolean {
  return type.members !== undefined && !Object.hasOwn(type.fields, key) && !type.members.names.includes(toSnake(key));
}

/**
 * The value without the members the contract does not know, at any depth (Pulumi-side
 * names): a program cannot name them, so they are never a difference from it.
 */
export function knownMembersOnly(value: unknown, type: FieldType): unknown {
  if (type.kind === "array" && Array.isArray(value)) return value.map((v) => knownMembersOnly(v, type.items));
  if (type.kind !== "object" || !isJsonRecord(value)) return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (unknownMember(type, key)) continue;
    out[key] = Object.hasOwn(type.fields, key) ? knownMembersOnly(v, type.fields[key].type) : v;
  }
  return out;
}

/** Whether members the contract does not know sit anywhere in this type. */
export const hasMembers = (type: FieldType): boolean =>
  type.kind === "array"
    ? hasMembers(type.items)
    : type.kind === "object" && (type.members !== undefined || Object.values(type.fields).some((f) => hasMembers(f.type)));

/**
 * `sent` (wire) with the members the contract does not know that `held` (wire, the service's
 * record) has at the same place, verbatim: a message we send keeps what we cannot name.
 * List items are the same place when their required fields agree (a region's id and name).
 */
export function keepUnknownMembers(sent: unknown, held: unknown, type: FieldType): unknown {
  if (type.kind === "array") {
    if (!Array.isArray(sent) || !Array.isArray(held)) return sent;
    const items = type.items;
    const keys =
      items.kind === "object"
        ? Object.entries(items.fields)
            .filter(([, f]) => f.required)
            .map(([k]) => toSnake(k))
        : [];
    const same = (a: unknown, b: unknown) =>
      isJsonRecord(a) && isJsonRecord(b) && keys.length > 0 && keys.every((k) => String(a[k]) === String(b[k]));
    return sent.map((item) =>
      keepUnknownMembers(
        item,
        held.find((h) => same(item, h)),
        items,
      ),
    );
  }
  if (type.kind !== "object" || !isJsonRecord(sent) || !isJsonRecord(held)) return sent;
  const out: Json = { ...sent };
  for (const [wire, v] of Object.entries(held)) {
    const field = type.fields[toCamel(wire)];
    if (field && Object.hasOwn(type.fields, toCamel(wire))) {
      if (out[wire] !== undefined) out[wire] = keepUnknownMembers(out[wire], v, field.type);
    } else if (type.members && !type.members.names.includes(wire) && out[wire] === undefined) {
      out[wire] = v;
    }
  }
  return out;
}
