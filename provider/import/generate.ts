// Records as the service holds them -> one TypeScript module of `new cims.<Type>(name, {...})`
// that adopts them. Pure: no network, no clock, so the same records give the same text.
//
// The arguments come from the contract's field tables (api/contract), not from a list per
// resource: every field of the table the record holds is written, camelCased (api/names),
// in the table's order, so a field added to the contract is imported too; each kind's
// descriptor adds its identity and scope (its import row). Values are written
// as the service holds them (tags: the users' only; int64 quota numbers as decimal strings),
// so adopting changes nothing and the first `pulumi up` sends no write.
import type { BodyContract, Field, FieldType } from "../../api/contract";
import type { Kind } from "../kinds/registry";
import { KIND_NAMES, kind } from "../kinds/registry";
import { SERVICE_SET } from "../methods/table";
import { isLosslessNumber } from "lossless-json";
import { toCamel, toSnake } from "../../api/names";
import { splitTags } from "../../api/tags";
import { withoutMark } from "../methods/mark";
import { compareIds, resourceNames } from "./names";

export type ApiRecord = Record<string, unknown>;
type Args = Record<string, unknown>;

export interface Scope {
  projectId: number;
  regionId: number;
}

/** What cims-import read, by kind: lists and the records named on the command line. */
export type ImportRecords = Partial<Record<Kind, ApiRecord[]>>;

/** One resource of the module. */
export interface Declaration {
  type: Kind;
  name: string;
  args: Args;
}

/** A value the program may write: null only where the field allows null. */
const takesNull = (f: Field) => f.nullable === true || f.removedByDelete === true;

const isObject = (v: unknown): v is ApiRecord => typeof v === "object" && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

/**
 * A record's value of this type as the program gives it. `skip`: fields of the object (or of
 * each object of the list) that the service sets; `notes` collects what was left out.
 */
export function valueFromRecord(value: unknown, type: FieldType, notes: string[] = [], where = "", skip: readonly string[] = []): unknown {
  if (value === null || value === undefined) return value;
  switch (type.kind) {
    case "integer":
      // int64 as decimal strings (exact past 2^53); other integers are plain numbers.
      return type.int64 || typeof value !== "number" ? String(value) : value;
    case "tags":
      // The users' tags; the service's read-only ones and a create's mark are not the program's.
      return withoutMark(splitTags(value).tags);
    case "array":
      return Array.isArray(value) ? value.map((v, i) => valueFromRecord(v, type.items, notes, `${where}[${i}]`, skip)) : value;
    case "object": {
      if (!isObject(value)) return value;
      const out = fieldsFromRecord(type.fields, value, notes, where, skip);
      const known = new Set(Object.entries(type.fields).map(([name, f]) => f.recordName ?? toSnake(name)));
      for (const [wire, v] of Object.entries(value)) {
        if (known.has(wire) || v === undefined) continue;
        if (type.members?.names.includes(wire)) out[toCamel(wire)] = valueFromRecord(v, type.members.type, notes, `${where}.${wire}`);
        else if (type.members) notes.push(`${where}.${wire}: not a ${type.members.what} the contract knows; left out`);
        // Other fields the table does not name are the service's own (ids, statuses).
      }
      return out;
    }
    default:
      return value;
  }
}

/** The table's fields the record holds, camelCased, in the table's order. */
function fieldsFromRecord(
  fields: Readonly<Record<string, Field>>,
  record: ApiRecord,
  notes: string[],
  where: string,
  skip: readonly string[] = [],
): Args {
  const out: Args = {};
  for (const [name, field] of Object.entries(fields)) {
    // Create-only instructions the records do not carry, and what only the service sets.
    if (field.notInRecord || field.set === "read" || skip.includes(name)) continue;
    const raw = record[field.recordName ?? toSnake(name)];
    if (raw === undefined || (raw === null && !takesNull(field))) continue;
    out[name] = valueFromRecord(raw, field.type, notes, where ? `${where}.${name}` : name, SERVICE_SET[name]);
  }
  return out;
}

/** Arguments of a resource's contract from a record (every field it holds). */
export function argsFromRecord(contract: BodyContract, record: ApiRecord, notes: string[] = [], where = ""): Args {
  return fieldsFromRecord(contract.fields, record, notes, where);
}

const scopeOf = (record: ApiRecord, scope: Scope) => ({
  projectId: Number(record.project_id ?? scope.projectId),
  regionId: Number(record.region_id ?? scope.regionId),
});

/** A resource's arguments from its record, as its descriptor's import row writes them. */
export function argsOf(type: Kind, record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  const { contract, import: row } = kind(type).descriptor;
  const table = row.only ? { fields: Object.fromEntries(row.only.map((name) => [name, contract.fields[name]])) } : contract;
  return row.args(record, argsFromRecord(table, record, notes), scopeOf(record, scope));
}

/** Every resource, named, in a fixed order: by kind, then by id. */
export function declarations(records: ImportRecords, scope: Scope, notes: string[] = []): Declaration[] {
  const out: Declaration[] = [];
  for (const type of KIND_NAMES) {
    const row = kind(type).descriptor.import;
    const sorted = [...(records[type] ?? [])].sort((a, b) => compareIds(row.id(a), row.id(b)));
    const names = resourceNames(
      row.prefix,
      sorted.map((r) => ({ id: row.id(r), name: row.name(r) })),
    );
    for (const r of sorted) {
      const resourceName = names.get(row.id(r))!;
      const recordNotes: string[] = [];
      out.push({ type, name: resourceName, args: argsOf(type, r, scope, recordNotes) });
      notes.push(...recordNotes.map((n) => `${resourceName}: ${n}`));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Printing: TypeScript literals, two-space indent, one line when short.
// ---------------------------------------------------------------------------------------

const WIDTH = 100;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const key = (k: string) => (IDENTIFIER.test(k) ? k : JSON.stringify(k));

/** A value as a TypeScript expression; `indent` is the current line's indentation. */
export function printValue(value: unknown, indent = ""): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "bigint") return JSON.stringify(String(value));
  const inner = indent + "  ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const flat = `[${value.map((v) => printValue(v, inner)).join(", ")}]`;
    if (!flat.includes("\n") && indent.length + flat.length <= WIDTH) return flat;
    return `[\n${value.map((v) => `${inner}${printValue(v, inner)},\n`).join("")}${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return "{}";
    const flat = `{ ${entries.map(([k, v]) => `${key(k)}: ${printValue(v, inner)}`).join(", ")} }`;
    if (!flat.includes("\n") && indent.length + flat.length <= WIDTH) return flat;
    return `{\n${entries.map(([k, v]) => `${inner}${key(k)}: ${printValue(v, inner)},\n`).join("")}${indent}}`;
  }
  // Anything else (a lossless number the codec kept as text) as its digits.
  return JSON.stringify(String(value));
}

/** One resource as a statement. */
export function printDeclaration(d: Declaration): string {
  const args = Object.entries(d.args).filter(([, v]) => v !== undefined);
  const body = args.map(([k, v]) => `  ${key(k)}: ${printValue(v, "  ")},\n`).join("");
  return `new cims.${d.type}(${JSON.stringify(d.name)}, {\n${body}});\n`;
}

export interface ModuleOptions {
  /** Comment lines for the module's head (what was imported, from where). */
  header?: string[];
}

/** The whole module: header, the import of the package, one statement per resource. */
export function generateModule(records: ImportRecords, scope: Scope, options: ModuleOptions = {}, notes: string[] = []): string {
  const decls = declarations(records, scope, notes);
  const head = [
    "// Generated by cims-import (pulumi-cims). Each resource adopts a record the service already",
    "// holds (importId, poolId, policyId, clientId) with every field as the service holds it, so",
    "// the first `pulumi up` changes nothing. Edit it from there like any program.",
    ...(options.header ?? []).map((line) => `// ${line}`),
  ];
  const sections: string[] = [];
  let previous: Declaration["type"] | undefined;
  for (const d of decls) {
    if (d.type !== previous) sections.push(`\n// ${d.type}\n`);
    previous = d.type;
    sections.push(printDeclaration(d));
  }
  return `${head.join("\n")}\nimport * as cims from "pulumi-cims";\n${sections.join("")}`;
}
