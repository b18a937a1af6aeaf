// What follows from a contract's calls (its `operations`), for the provider, the emulator and
// the tests alike: where a kind's record lives (its path, its id's parameter, its scope), which
// task each call answers with, and the vendor SDK's types of what is sent and answered. A fact
// of the API is said once, in the contract; everything here reads it.
import { toCamel } from "../names";
import type { CallContract, Method, Operation } from "./types";

/** A contract's call by name, with its path template resolved. */
export interface ResolvedOperation extends Operation {
  readonly name: string;
  readonly template: string;
}

/** Every call of a contract: `create`, `list`, `get`, `update`, `delete`, then `more`'s, each with its template. */
export function operationsOf(contract: CallContract): ResolvedOperation[] {
  const { more, ...main } = contract.operations;
  const named = [...Object.entries(main), ...Object.entries(more ?? {})].filter((e): e is [string, Operation] => e[1] !== undefined);
  return named.map(([name, op]) => {
    const template = contract.paths[op.path];
    if (template === undefined) throw new Error(`${contract.name}: operation ${name} names path "${op.path}", which its paths lack`);
    return { ...op, name, template };
  });
}

/** One of a contract's main calls with its template, or undefined when the kind has none. */
export function operation(contract: CallContract, name: "create" | "list" | "get" | "update" | "delete"): ResolvedOperation | undefined {
  return operationsOf(contract).find((op) => op.name === name);
}

/** The {parameters} of a path template, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
}

const getTemplate = (contract: CallContract): string => {
  const get = operation(contract, "get");
  if (!get) throw new Error(`${contract.name}: no get operation`);
  return get.template;
};

/** The parameter of the record's path that is its id: the last of `get`'s path. */
export function idParam(contract: CallContract): string {
  const params = pathParams(getTemplate(contract));
  if (params.length === 0) throw new Error(`${contract.name}: the get operation's path has no id parameter`);
  return params[params.length - 1];
}

/** The parameters before the id: where the record lives (`project_id`, `region_id`, a member's `pool_id`). */
export function scopeParams(contract: CallContract): string[] {
  return pathParams(getTemplate(contract)).slice(0, -1);
}

/** Whether a record lives in a project and region (`projectId`/`regionId` inputs, defaulting to the config's). */
export function isScoped(contract: CallContract): boolean {
  const scope = scopeParams(contract);
  return scope.includes("project_id") && scope.includes("region_id");
}

/** The scope's further parameters, as the inputs that fill them (`poolId` for a member's `{pool_id}`). */
export function parentInputs(contract: CallContract): string[] {
  return scopeParams(contract)
    .filter((p) => p !== "project_id" && p !== "region_id")
    .map(toCamel);
}

/** Whether the service answers this call with a task. */
export const byTask = (op: Operation | undefined): boolean => op?.task !== undefined;

/** The calls that carry a body the vendor SDK types: method, template and the SDK's request type. */
export function requestsOf(contract: CallContract): Array<{ method: Method; template: string; sdk: string }> {
  return operationsOf(contract).flatMap((op) => (op.request ? [{ method: op.method, template: op.template, sdk: op.request }] : []));
}

/** The vendor SDK's model of a record of this kind (what `get` answers, or the part of it that is the record). */
export function responseModel(contract: CallContract): string | undefined {
  return contract.recordModel ?? operation(contract, "get")?.response;
}

/** Every task type a contract's calls answer with. */
export function taskTypesOf(contract: CallContract): string[] {
  return [...new Set(operationsOf(contract).flatMap((op) => (op.task ? [op.task] : [])))];
}
