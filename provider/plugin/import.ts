// `pulumi import`, the `import` resource option and a `get` (a resource read by id: YAML
// `get:`, `new cims.native.Subnet(name, {}, { id })`) on the plugin face: the engine calls Read
// with the id alone (a `get` may add what the program gave as state). The id is the record's
// (a uuid, or a policy's or client's number), or `<project>/<region>/<id>`; without a scope in
// it, the state a `get` gave, else the provider's `cims:projectId` and `cims:regionId`, say
// where. The inputs returned are those the program `cims-import` would write for the record
// (its kind's import row), checked as check() would, and the outputs those a create of the
// same inputs records: so the next `up` of that program changes nothing.
import { nullWords } from "../../api/contract";
import { BadRequestError, NotFoundError } from "../client/errors";
import { apiClient, scopeDefaults, warn } from "../methods/context";
import { isOwned } from "../methods/descriptor";
import type { Kind } from "../kinds/registry";
import { kind } from "../kinds/registry";
import type { Inputs } from "../methods/schema";
import { argsOf } from "../kinds/program-args";

export interface Imported {
  id: string;
  properties: Inputs;
  inputs: Inputs;
}

/**
 * `<project>/<region>/<id>`, or the id alone with the scope `state` gives (a `get`'s), else the
 * configured one. A kind whose record needs more than its scope (a pool member:
 * `importIdParts` ["poolId"]) names those before the id: `<project>/<region>/<poolId>/<id>` or
 * `<poolId>/<id>`.
 */
function parseId(type: Kind, given: string, state: Inputs): { scope: { projectId: number; regionId: number }; named: Inputs; id: string } {
  const before = kind(type).descriptor.importIdParts ?? [];
  const all = given.split("/");
  const named = Object.fromEntries(before.map((name, i) => [name, all.slice(-1 - before.length, -1)[i]]));
  const parts = [...all.slice(0, Math.max(0, all.length - 1 - before.length)), all[all.length - 1]];
  const form = [...before.map((n) => `<${n}>`), "<id>"].join("/");
  if (all.length < before.length + 1 || Object.values(named).some((v) => !v)) {
    throw new Error(`cims:index:${type}: import id "${given}" is neither ${form} nor <project>/<region>/${form}`);
  }
  if (parts.length === 3 && parts.slice(0, 2).every((p) => /^\d+$/.test(p))) {
    return { scope: { projectId: Number(parts[0]), regionId: Number(parts[1]) }, named, id: parts[2] };
  }
  if (parts.length !== 1) {
    throw new Error(
      `cims:index:${type}: import id "${given}" is neither ${before.length > 0 ? form : "an id"} nor <project>/<region>/${form}`,
    );
  }
  const defaults = { ...scopeDefaults(), ...scopeOf(type, state) };
  const scoped = kind(type).descriptor.scoped;
  if (scoped && (defaults.projectId === undefined || defaults.regionId === undefined)) {
    throw new Error(
      `cims:index:${type}: id "${given}" names no project and region, and cims:projectId/cims:regionId are not set: ` +
        `give it as <project>/<region>/${given}, or set them`,
    );
  }
  return { scope: { projectId: defaults.projectId ?? 0, regionId: defaults.regionId ?? 0 }, named, id: parts[0] };
}

/** The projectId and regionId a `get`'s state gives. */
function scopeOf(type: Kind, state: Inputs): { projectId?: number; regionId?: number } {
  const scope: { projectId?: number; regionId?: number } = {};
  for (const key of ["projectId", "regionId"] as const) {
    const value = state[key];
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      throw new Error(`cims:index:${type}: ${key}: must be a positive integer, got ${JSON.stringify(value)}: give the record's ${key}`);
    scope[key] = value;
  }
  return scope;
}

/**
 * The record of id `given` as an import records it. A `get` (`verb` "read") may give `state`
 * beside the id: its scope, where the id names none.
 */
export async function importRead(type: Kind, given: string, verb: "import" | "read" = "import", state: Inputs = {}): Promise<Imported> {
  const { descriptor, table, methods } = kind(type);
  const { scope, named, id } = parseId(type, given, state);
  const where = descriptor.scoped ? ` in project ${scope.projectId}, region ${scope.regionId}` : "";
  let record: Record<string, unknown>;
  try {
    record = descriptor.readRecord
      ? await descriptor.readRecord({ ...scope, ...named }, id)
      : await apiClient().record("GET", descriptor.recordPath(scope, id, named), {}, descriptor.recordKey);
  } catch (err) {
    // A 400: the service refused the id's form (not a uuid): no such record either.
    if (err instanceof NotFoundError || err instanceof BadRequestError)
      throw new Error(
        `cims:index:${type}: no record ${id}${where} to ${verb} (${err.message}): check the id` +
          (descriptor.scoped ? `, or name its scope in it as <project>/<region>/${id}` : ""),
        { cause: err },
      );
    throw err;
  }
  // The program that adopts the record, without what only the dynamic face needs (importId:
  // the engine imports here), and without nulls: the program `pulumi import --out` writes
  // leaves them out (an omitted argument of these kinds is the service's, or unmanaged), so
  // inputs holding them would differ from it. A null whose field has a word for it is that
  // word instead (a gateway-less subnet's `gatewayIp: "disable"`): left out, the program would
  // ask for the service's choice, and a YAML, Python or Go program cannot write null. Checked
  // as the kind checks: defaults filled in (a policy's includeVolumes), values in their
  // canonical form.
  // What an import may take of the record (a pool's members some stack made stay theirs).
  const prepared = await descriptor.import.prepare?.(apiClient(), record, scope);
  if (prepared) {
    record = prepared.record;
    for (const note of prepared.notes) await warn(`cims:index:${type} ${id}: ${note}`);
  }
  // The id names its parents as text; the record, where it carries them, in their own types (a policy id is a number).
  const { importId: _adopt, ...args } = { ...named, ...argsOf(type, record, scope) };
  const words = nullWords(descriptor.contract.fields);
  const program = Object.fromEntries(
    Object.entries(args).flatMap(([k, v]) => (v !== null ? [[k, v]] : Object.hasOwn(words, k) ? [[k, words[k]]] : [])),
  );
  // A kind that adopts (it takes importId and deleteAdopted) checks with its table too: its own
  // check refuses, as taken by another, the very record being imported.
  const adopts = isOwned(descriptor) || "deleteAdopted" in descriptor.own;
  const checked = adopts ? table.check({}, program, () => scope) : await methods.check({}, program);
  if (checked.failures?.length) {
    throw new Error(`cims:index:${type}: the record ${id} does not make valid inputs: ${checked.failures.map((f) => f.reason).join("; ")}`);
  }
  const inputs = checked.inputs ?? program;
  // Taken over, not made: its destroy leaves the record unless the program says deleteAdopted (methods/adopt.ts).
  const adopted = adopts ? { adopted: true } : {};
  const properties = { ...table.outputs(inputs, record, []), ...descriptor.importState?.(inputs, record), ...adopted };
  // The inputs the engine writes the program from: each null word as the program gave it (check reads it as null again).
  const written = { ...inputs, ...Object.fromEntries(Object.entries(words).filter(([k]) => inputs[k] === null)) };
  return { id: String(record.id ?? record.client_id ?? id), properties, inputs: written };
}
