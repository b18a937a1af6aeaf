// Records as the service holds them -> one TypeScript module of `new cims.<Type>(name, {...})`
// that adopts them. Pure: no network, no clock, so the same records give the same text.
//
// The arguments come from the contract's field tables (api/contract), not from a list per
// resource: every field of the table the record holds is written, camelCased (api/names),
// in the table's order, so a field added to the contract is imported too. Values are written
// as the service holds them (tags: the users' only; int64 quota numbers as decimal strings),
// so adopting changes nothing and the first `pulumi up` sends no write.
import { IMAGE, POLICY, POOL, QUOTA_THRESHOLD, SUBNET } from "../../api/contract";
import type { BodyContract, Field, FieldType } from "../../api/contract";
import { isLosslessNumber } from "lossless-json";
import { toCamel, toSnake } from "../../api/names";
import { splitTags } from "../../api/tags";
import { compareIds, resourceNames } from "./names";

export type ApiRecord = Record<string, unknown>;
type Args = Record<string, unknown>;

export interface Scope {
  projectId: number;
  regionId: number;
}

/** What cims-import read: lists and the records named on the command line. */
export interface ImportRecords {
  subnets: ApiRecord[];
  images: ApiRecord[];
  pools: ApiRecord[];
  policies: ApiRecord[];
  /** Quota notification settings (one per client). */
  thresholds: ApiRecord[];
}

/** One resource of the module. */
export interface Declaration {
  type: "Subnet" | "BaremetalImage" | "LbPoolSettings" | "SnapshotPolicyState" | "QuotaThreshold";
  name: string;
  args: Args;
}

/**
 * Fields of nested objects the service sets itself although the table lists them (a pool
 * member's id and operating status): a program gives only a member's settings.
 */
const SERVICE_SET: Readonly<Record<string, readonly string[]>> = { members: ["id", "operatingStatus"] };

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
      // The users' tags; the service's read-only ones are not the program's.
      return splitTags(value).tags;
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

/** Subnet: its fields, the scope and importId. No gateway needs `connectToNetworkRouter: false` (api/rules.ts). */
export function subnetArgs(record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  const args: Args = {};
  for (const [name, value] of Object.entries(argsFromRecord(SUBNET, record, notes))) {
    args[name] = value;
    // Next to networkId, where the table lists it.
    if (name === "networkId" && record.gateway_ip === null) args.connectToNetworkRouter = false;
  }
  return { ...args, ...scopeOf(record, scope), importId: String(record.id) };
}

export function imageArgs(record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  return { ...argsFromRecord(IMAGE, record, notes), ...scopeOf(record, scope), importId: String(record.id) };
}

/** LbPoolSettings: every setting the pool holds (members by their settings only), so all are managed. */
export function poolArgs(record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  return { poolId: String(record.id), ...scopeOf(record, scope), ...argsFromRecord(POOL, record, notes) };
}

export function policyArgs(record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  return { policyId: Number(record.id), ...scopeOf(record, scope), ...argsFromRecord(POLICY, record, notes) };
}

/**
 * QuotaThreshold: the client and its threshold only. `lastMessage` and `lastSending` are what
 * the service records of its own e-mails: written into the program they would be pinned, so a
 * newer `last_sending` would be reverted by the next `up`. Omitted, the stack leaves them to
 * the service (a user who means to manage them writes them).
 */
export function thresholdArgs(record: ApiRecord, notes: string[] = []): Args {
  const { threshold } = argsFromRecord({ fields: { threshold: QUOTA_THRESHOLD.fields.threshold } }, record, notes);
  return { clientId: Number(record.client_id), threshold };
}

/** Every resource, named, in a fixed order: by kind, then by id. */
export function declarations(records: ImportRecords, scope: Scope, notes: string[] = []): Declaration[] {
  const out: Declaration[] = [];
  const uuid = (r: ApiRecord) => String(r.id).toLowerCase();
  const byName = (r: ApiRecord) => r.name;
  // Per kind: its records, how to order and name them, and their arguments.
  const kinds: Array<{
    type: Declaration["type"];
    prefix: string;
    list: ApiRecord[];
    id: (r: ApiRecord) => string | number;
    name: (r: ApiRecord) => unknown;
    args: (r: ApiRecord, n: string[]) => Args;
  }> = [
    { type: "Subnet", prefix: "subnet", list: records.subnets, id: uuid, name: byName, args: (r, n) => subnetArgs(r, scope, n) },
    { type: "BaremetalImage", prefix: "image", list: records.images, id: uuid, name: byName, args: (r, n) => imageArgs(r, scope, n) },
    { type: "LbPoolSettings", prefix: "pool", list: records.pools, id: uuid, name: byName, args: (r, n) => poolArgs(r, scope, n) },
    {
      type: "SnapshotPolicyState",
      prefix: "policy",
      list: records.policies,
      id: (r) => Number(r.id),
      name: byName,
      args: (r, n) => policyArgs(r, scope, n),
    },
    {
      type: "QuotaThreshold",
      prefix: "quota-threshold",
      list: records.thresholds,
      id: (r) => Number(r.client_id),
      name: (r) => `client-${String(r.client_id)}`,
      args: (r, n) => thresholdArgs(r, n),
    },
  ];
  for (const { type, prefix, list, id, name, args } of kinds) {
    const sorted = [...list].sort((a, b) => compareIds(id(a), id(b)));
    const names = resourceNames(
      prefix,
      sorted.map((r) => ({ id: id(r), name: name(r) })),
    );
    for (const r of sorted) {
      const resourceName = names.get(id(r))!;
      const recordNotes: string[] = [];
      out.push({ type, name: resourceName, args: args(r, recordNotes) });
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
