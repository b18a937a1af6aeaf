// What follows from a field table, for both sides: what omitting a field means, the fields an
// update may set, a new record's fields, and a record with an update applied. The provider's
// check/diff/bodies (provider/methods/table.ts) and the emulator's records (emulator/routes)
// both read a field's behaviour from here, so adding a field is a line in its table. Tags
// are the one special case (a request's object, a record's list with the service's own tags):
// the caller says how they are kept.
import { toSnake } from "../names";
import type { BodyContract, Field, FieldType } from "./types";

type Record_ = Record<string, unknown>;

/** What leaving out an optional field means: its default, the service's choice, or "not managed". */
export type Omission = "default" | "service" | "unmanaged";

/** How an optional field is treated when left out; undefined for a required one, or one with no rule (a contract error). */
export function omission(contract: BodyContract, field: Field): Omission | undefined {
  if (field.required) return undefined;
  if (field.default !== undefined) return "default";
  if (field.serviceDefault) return "service";
  return contract.omitted === "unmanaged" ? "unmanaged" : undefined;
}

/**
 * A field's words as every doc and schema says them: its doc, and the word a program may give
 * for null where it has one (Field.nullWord).
 */
export function fieldDoc(field: Pick<Field, "doc" | "nullWord">): string {
  if (field.nullWord === undefined) return field.doc;
  return `${field.doc} \`"${field.nullWord}"\` is the same as null, for YAML, Python, Go and Java programs, whose SDKs drop a null input.`;
}

/** The words that stand for null (Field.nullWord), by field name. */
export function nullWords(fields: Readonly<Record<string, Pick<Field, "nullWord">>>): Readonly<Record<string, string>> {
  return Object.fromEntries(Object.entries(fields).flatMap(([name, f]) => (f.nullWord === undefined ? [] : [[name, f.nullWord]])));
}

/** The wire name a record carries a field under. */
export const recordName = (name: string, field: Field): string => field.recordName ?? toSnake(name);

/** The value a record holds for a field nobody gave: its default, else the empty value of its type. */
export function absentValue(field: Field): unknown {
  if (field.default !== undefined) return field.type.kind === "tags" ? [] : field.default;
  return emptyValue(field.type);
}

function emptyValue(type: FieldType): unknown {
  if (type.kind === "array" || type.kind === "tags") return [];
  if (type.kind === "object" && Object.values(type.fields).every((f) => f.default !== undefined)) {
    return Object.fromEntries(Object.entries(type.fields).map(([name, f]) => [toSnake(name), f.default]));
  }
  return null;
}

/** The camelCase names of the fields an update's body may set (not those changed by calls of their own). */
export function updatable(contract: BodyContract): string[] {
  return Object.entries(contract.fields)
    .filter(([, f]) => f.set === "update" && f.changedBy === undefined)
    .map(([name]) => name);
}

export interface Keeping {
  /** A new record's tags from the request's (the service adds its own). */
  newTags?: (given: unknown) => unknown;
  /** A record's tags after an update's merge patch. */
  mergeTags?: (held: unknown, patch: unknown) => unknown;
  /** Fields the caller applies itself (a pool's members, kept by address and port). */
  own?: Readonly<Record<string, (held: unknown, given: unknown) => unknown>>;
}

/**
 * A new record's fields from a (valid, canonical) request body: each field the record carries
 * (not the create-only instructions), as given, else its absent value. The caller adds what
 * only the service knows (ids, computed fields).
 */
export function recordFields(contract: BodyContract, body: Record_, keep: Keeping = {}): Record_ {
  const out: Record_ = {};
  for (const [name, field] of Object.entries(contract.fields)) {
    if (field.notInRecord) continue;
    const given = body[toSnake(name)];
    if (field.type.kind === "tags") out[recordName(name, field)] = keep.newTags ? keep.newTags(given) : (given ?? absentValue(field));
    else out[recordName(name, field)] = given === undefined || (given === null && field.type.kind === "array") ? absentValue(field) : given;
  }
  return out;
}

/**
 * A record with an update applied: each field the update may set that the body holds. A
 * list set to null is empty (the service holds no null lists); tags are merged.
 */
export function applyUpdate(contract: BodyContract, record: Record_, body: Record_, keep: Keeping = {}): Record_ {
  const out: Record_ = { ...record };
  for (const name of updatable(contract)) {
    const field = contract.fields[name];
    const wire = toSnake(name);
    if (!(wire in body)) continue;
    const to = recordName(name, field);
    const given = body[wire];
    const own = keep.own?.[wire];
    if (own) out[to] = own(record[to], given);
    else if (field.type.kind === "tags") out[to] = keep.mergeTags ? keep.mergeTags(record[to], given) : given;
    else out[to] = given === null && field.type.kind === "array" ? [] : given;
  }
  return out;
}

/** Optional fields that say nothing of what leaving them out means (each would be a stored null that diffs on every preview). */
export function fieldsWithoutOmissionRule(contract: BodyContract): string[] {
  return Object.entries(contract.fields)
    .filter(([, f]) => !f.required && omission(contract, f) === undefined)
    .map(([name]) => name);
}
