// Records as the service holds them -> one TypeScript module of `new cims.<Type>(name, {...})`
// that adopts them. Pure: no network, no clock, so the same records give the same text.
//
// The arguments come from the contract's field tables (api/contract), not from a list per
// resource: every field of the table the record holds is written, camelCased (api/names),
// in the table's order, so a field added to the contract is imported too; each kind's
// descriptor adds its identity and scope (its import row). Values are written
// as the service holds them (tags: the users' only; int64 quota numbers as decimal strings),
// so adopting changes nothing and the first `pulumi up` sends no write.
import type { Kind } from "../kinds/registry";
import { KIND_NAMES, kind } from "../kinds/registry";
import { isLosslessNumber } from "lossless-json";

const isObject = (v: unknown): v is ApiRecord => typeof v === "object" && v !== null && !Array.isArray(v) && !isLosslessNumber(v);
import { argsOf, type Scope } from "../kinds/program-args";
import { compareIds, resourceNames } from "./names";

export type ApiRecord = Record<string, unknown>;
type Args = Record<string, unknown>;

export type { Scope } from "../kinds/program-args";

/** What cims-import read, by kind: lists and the records named on the command line. */
export type ImportRecords = Partial<Record<Kind, ApiRecord[]>>;

/** One resource of the module. */
export interface Declaration {
  type: Kind;
  name: string;
  args: Args;
  /** Why an argument the record holds is not written (a comment above the statement). */
  comments?: string[];
}

/** An argument of one record left out of its statement, and why (said in a comment above it). */
export interface Omission {
  type: Kind;
  id: string;
  arg: string;
  why: string;
}

/** Every resource, named, in a fixed order: by kind, then by id. */
export function declarations(records: ImportRecords, scope: Scope, notes: string[] = [], omit: Omission[] = []): Declaration[] {
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
      const args = argsOf(type, r, scope, recordNotes);
      const omitted = omit.filter((o) => o.type === type && o.id === row.id(r));
      for (const o of omitted) delete args[o.arg];
      const comments = omitted.map((o) => `${o.arg} left out: ${o.why}`);
      out.push({ type, name: resourceName, args, ...(comments.length > 0 ? { comments } : {}) });
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

/** One resource as a statement, its comments above it; `protect`: with the `protect` resource option. */
export function printDeclaration(d: Declaration, protect = false): string {
  const args = Object.entries(d.args).filter(([, v]) => v !== undefined);
  const body = args.map(([k, v]) => `  ${key(k)}: ${printValue(v, "  ")},\n`).join("");
  const comments = (d.comments ?? []).map((c) => `${commentLines(c)}\n`).join("");
  return `${comments}new cims.${d.type}(${JSON.stringify(d.name)}, {\n${body}}${protect ? ", { protect: true }" : ""});\n`;
}

/** A comment as `//` lines of at most WIDTH columns. */
function commentLines(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= WIDTH) lines[last] += ` ${word}`;
    else lines.push(`// ${word}`);
  }
  return lines.join("\n");
}

export interface ModuleOptions {
  /** Comment lines for the module's head (what was imported, from where). */
  header?: string[];
  /**
   * Each resource with `protect: true` (the default): neither `pulumi destroy` nor a
   * replacement deletes what was adopted, which predates the stack, until it is unprotected.
   */
  protect?: boolean;
  /** Arguments left out of their statements, each said in a comment. */
  omit?: Omission[];
}

/** The whole module: header, the import of the package, one statement per resource. */
export function generateModule(records: ImportRecords, scope: Scope, options: ModuleOptions = {}, notes: string[] = []): string {
  const decls = declarations(records, scope, notes, options.omit);
  const protect = options.protect ?? true;
  const head = [
    "// Generated by cims-import (pulumi-cims). Each resource adopts a record the service already",
    "// holds (importId, poolId, policyId, clientId) with every field as the service holds it, so",
    "// the first `pulumi up` changes nothing. Edit it from there like any program.",
    ...(protect
      ? [
          "// Each is protected (`protect: true`): `pulumi destroy` fails rather than delete or reset what",
          "// predates the stack. To let Pulumi delete one, remove its `protect` (or run",
          "// `pulumi state unprotect <urn>`); cims-import --no-protect writes none.",
        ]
      : []),
    ...(options.header ?? []).map((line) => `// ${line}`),
  ];
  const sections: string[] = [];
  let previous: Declaration["type"] | undefined;
  for (const d of decls) {
    if (d.type !== previous) sections.push(`\n// ${d.type}\n`);
    previous = d.type;
    sections.push(printDeclaration(d, protect));
  }
  return `${head.join("\n")}\nimport * as cims from "pulumi-cims";\n${sections.join("")}`;
}
