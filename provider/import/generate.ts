// Records as the service holds them -> one program that adopts them: the resources and their
// arguments (declarations), which render.ts writes in TypeScript, YAML, Python or Go. Pure: no
// network, no clock, so the same records give the same text.
//
// The arguments come from the contract's field tables (api/contract), not from a list per
// resource: every field of the table the record holds is written, camelCased (api/names),
// in the table's order, so a field added to the contract is imported too; each kind's
// descriptor adds its identity and scope (its import row). Values are written
// as the service holds them (tags: the users' only; int64 quota numbers as decimal strings),
// so adopting changes nothing and the first `pulumi up` sends no write.
import type { Kind } from "../kinds/registry";
import { KIND_NAMES, kind } from "../kinds/registry";
import { argsOf, type Scope } from "../kinds/program-args";
import type { Declaration } from "../kinds/program-model";
import type { AdoptionProgram } from "./program";
import { type Language, renderProgram } from "./render";
import { compareIds, resourceNames } from "./names";
import type { ApiRecord } from "../../api/guards";
import type { IgnoreTags } from "../config";
import { withoutIgnored } from "../methods/tag-rules";

export type { Scope } from "../kinds/program-args";
export type { AdoptionProgram } from "./program";
export type { Declaration } from "../kinds/program-model";
export { type Language, LANGUAGES, printValue } from "./render";

/** What cims-import read, by kind: lists and the records named on the command line. */
export type ImportRecords = Partial<Record<Kind, ApiRecord[]>>;

/** An argument of one record left out of its statement, and why (said in a comment above it). */
export interface Omission {
  type: Kind;
  id: string;
  /** The argument left out; none: `why` is a note on the resource, its arguments all written. */
  arg?: string;
  why: string;
}

/** Every resource, named, in a fixed order: by kind, then by id. */
export function declarations(
  records: ImportRecords,
  scope: Scope,
  notes: string[] = [],
  omit: Omission[] = [],
  ignoreTags?: IgnoreTags,
): Declaration<Kind>[] {
  const out: Declaration<Kind>[] = [];
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
      // Tags the stack leaves to others (its cims:ignoreTags) are not the program's: a stack
      // with that setting refuses them in a resource's tags.
      if (ignoreTags && args.tags !== undefined) args.tags = withoutIgnored(args.tags, ignoreTags);
      const omitted = omit.filter((o) => o.type === type && o.id === row.id(r));
      for (const o of omitted) if (o.arg !== undefined) delete args[o.arg];
      const comments = omitted.map((o) => (o.arg === undefined ? o.why : `${o.arg} left out: ${o.why}`));
      out.push({ type, name: resourceName, args, ...(comments.length > 0 ? { comments } : {}) });
      notes.push(...recordNotes.map((n) => `${resourceName}: ${n}`));
    }
  }
  return out;
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
  /** The program's language (default: TypeScript, the dynamic face). */
  language?: Language;
  /** The stack's `cims:ignoreTags` (--ignore-tags): such tags are left out of every resource's tags. */
  ignoreTags?: IgnoreTags;
}

/** What the records come to, whatever language writes it. */
export function adoptionProgram(records: ImportRecords, scope: Scope, options: ModuleOptions = {}, notes: string[] = []): AdoptionProgram {
  return {
    header: options.header ?? [],
    declarations: declarations(records, scope, notes, options.omit, options.ignoreTags),
    protect: options.protect ?? true,
  };
}

/** The whole program in `options.language`: header, the package's import, one statement per resource. */
export function generateModule(records: ImportRecords, scope: Scope, options: ModuleOptions = {}, notes: string[] = []): string {
  return renderProgram(adoptionProgram(records, scope, options, notes), options.language ?? "typescript");
}
