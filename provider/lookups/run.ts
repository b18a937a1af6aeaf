// The lookups (api/lookups.ts) as the provider answers them, on both faces: the plugin's Invoke
// and the default face's `cims.get<Name>()` (which runs this in the program's own process,
// loaded at its first call). Each reads its list call once per scope and run: the lookups of
// one kind in one run (a program that calls getSubnet 20 times) share one list request per
// project and region, whichever filters they give, and filter it here. One, and only one,
// record must match a singular lookup: none or several fail before anything is deployed,
// naming the filters and the candidates, so the program's author can choose.
import { type Lookup, type LookupFilter, type LookupName, type LookupOutput, type LookupType, lookup } from "../../api/lookups";
import { toCamel } from "../../api/names";
import { isRecord, recordsIn, type ApiRecord } from "../../api/guards";
import { apiPath, listAll } from "../client";
import { apiClient, scopeDefaults } from "../methods/context";
import { perClientMemory } from "../methods/run-memory";

/** A lookup's arguments as the program gave them (camelCase), and its answer. */
export type LookupArgs = Record<string, unknown>;
export type LookupResult = Record<string, unknown>;

/** A lookup that cannot answer: its arguments are wrong, or it found none or several records. */
export class LookupError extends Error {
  constructor(
    message: string,
    /** The argument at fault, when one is. */
    readonly property?: string,
  ) {
    super(message);
    this.name = "LookupError";
  }
}

/** The lists this run has asked for, by path: each asked once, its answer shared (a failure too). */
const lists = perClientMemory<Map<string, Promise<ApiRecord[]>>>();

function listOf(path: string): Promise<ApiRecord[]> {
  const client = apiClient();
  let byPath = lists.get(client);
  if (!byPath) lists.set(client, (byPath = new Map()));
  let list = byPath.get(path);
  if (!list) {
    list = listAll(client, path).then((records) => records.filter(isRecord));
    byPath.set(path, list);
  }
  return list;
}

const SCOPE_ARGS = ["projectId", "regionId"] as const;

function typeProblem(type: LookupType, value: unknown): string | undefined {
  const ok =
    type === "strings"
      ? Array.isArray(value) && value.every((v) => typeof v === "string")
      : type === "integer"
        ? Number.isSafeInteger(value)
        : typeof value === type;
  return ok ? undefined : `must be ${type === "strings" ? "a list of strings" : type === "integer" ? "an integer" : `a ${type}`}`;
}

/** The given filters (those not null), each checked against its type; an unknown argument is refused. */
function givenFilters(l: Lookup, args: LookupArgs): Array<[LookupFilter, unknown]> {
  const known = [...l.filters.map((f) => f.name), ...(l.scope === "project-region" ? SCOPE_ARGS : [])];
  for (const name of Object.keys(args)) {
    if (!known.includes(name))
      throw new LookupError(
        `${l.name} has no argument "${name}": it takes ${known.join(", ")}. Remove "${name}" or use one of them.`,
        name,
      );
  }
  const given: Array<[LookupFilter, unknown]> = [];
  for (const f of l.filters) {
    const value = args[f.name];
    if (value === undefined || value === null) continue;
    const problem = typeProblem(f.type, value);
    if (problem) throw new LookupError(`${l.name}: ${f.name} ${problem}, not ${JSON.stringify(value)}.`, f.name);
    given.push([f, value]);
  }
  for (const name of l.required ?? [])
    if (!given.some(([f]) => f.name === name)) throw new LookupError(`${l.name}: ${name} is required: give ${name}.`, name);
  return given;
}

/** The path of the lookup's list: its scope from the arguments, else the provider's config. */
function listPath(l: Lookup, args: LookupArgs): { path: string; where: string } {
  if (l.scope === "none") return { path: l.path, where: "the account" };
  const defaults = scopeDefaults();
  const scope: Record<string, unknown> = {};
  for (const name of SCOPE_ARGS) {
    const value = args[name] ?? defaults[name];
    if (value === undefined) {
      const config = name === "projectId" ? "cims:projectId (or CIMS_PROJECT_ID)" : "cims:regionId (or CIMS_REGION_ID)";
      throw new LookupError(`${l.name}: ${name} is not set: give ${name}, or set ${config} in the stack's config.`, name);
    }
    const problem = typeProblem("integer", value);
    if (problem) throw new LookupError(`${l.name}: ${name} ${problem}, not ${JSON.stringify(value)}.`, name);
    scope[name] = value;
  }
  const path = apiPath(l.path, { project_id: Number(scope.projectId), region_id: Number(scope.regionId) });
  return { path, where: `project ${String(scope.projectId)}, region ${String(scope.regionId)}` };
}

function matches(record: ApiRecord, [f, value]: [LookupFilter, unknown]): boolean {
  const field = record[f.wire];
  if (f.type === "strings") {
    const want = new Set(Array.isArray(value) ? value.map(String) : []);
    return Array.isArray(field) && field.length === want.size && field.every((v) => want.has(String(v)));
  }
  if (f.type === "integer" || f.type === "number") return field !== null && field !== undefined && Number(field) === value;
  return field === value;
}

/** One output's value: integers as numbers, null left out (a field the record does not hold). */
function outputValue(o: LookupOutput, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (o.type === "integer" || o.type === "number") return typeof value === "bigint" ? Number(value) : value;
  if (o.type === "strings") return Array.isArray(value) ? value.map(String) : undefined;
  return o.type === "string" && typeof value !== "string" ? String(value) : value;
}

export function shapeRecord(l: Lookup, record: ApiRecord): LookupResult {
  const out: LookupResult = {};
  for (const o of l.outputs) {
    const value = outputValue(o, record[o.wire]);
    if (value !== undefined) out[toCamel(o.wire)] = value;
  }
  return out;
}

const MAX_NAMED = 20;

/** The candidates a message names: each record's id and name. */
function candidates(records: readonly ApiRecord[]): string {
  if (records.length === 0) return "none";
  const named = records.slice(0, MAX_NAMED).map((r) => `${String(r.id)} "${String(r.name ?? r.display_name ?? "")}"`);
  return records.length > MAX_NAMED ? `${named.join(", ")} and ${records.length - MAX_NAMED} more` : named.join(", ");
}

const filterText = (given: ReadonlyArray<[LookupFilter, unknown]>): string =>
  given.length === 0 ? "no filter" : given.map(([f, v]) => `${f.name}=${JSON.stringify(v)}`).join(", ");

/** The one record a singular lookup answers, or its failure naming the filters and the candidates. */
function theOne(l: Lookup, given: Array<[LookupFilter, unknown]>, all: ApiRecord[], where: string): ApiRecord {
  const found = all.filter((r) => given.every((g) => matches(r, g)));
  if (found.length === 1) return found[0];
  const filters = filterText(given);
  const property = given[0]?.[0].name;
  if (found.length === 0)
    throw new LookupError(
      `${l.name} found no ${l.what} in ${where} with ${filters}. The ${l.what}s there: ${candidates(all)}. ` +
        `Correct the filter (by id or by name), or the scope.`,
      property,
    );
  const others = l.filters.filter((f) => !given.some(([g]) => g.name === f.name)).map((f) => f.name);
  throw new LookupError(
    `${l.name} found ${found.length} ${l.what}s in ${where} with ${filters}: ${candidates(found)}. ` +
      `Give one of their ids as id${others.length > 1 ? `, or add another filter (${others.filter((n) => n !== "id").join(", ")})` : ""}.`,
    property,
  );
}

/** Answers the lookup `name` with `args`: the record's fields, or for a list lookup every match's. */
export async function runLookup(name: LookupName, args: LookupArgs = {}): Promise<LookupResult> {
  const l = lookup(name);
  const given = givenFilters(l, args);
  const { path, where } = listPath(l, args);
  const all = await listOf(path);
  const many = l.many;
  if (!many) return shapeRecord(l, theOne(l, given, all, where));
  if (!many.parts) return { [many.field]: all.filter((r) => given.every((g) => matches(r, g))).map((r) => shapeRecord(l, r)) };
  const owner = theOne(l, given, all, where);
  return { [many.field]: recordsIn(owner[many.parts]).map((r) => shapeRecord(l, r)) };
}
