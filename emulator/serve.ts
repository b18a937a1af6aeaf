// A resource's calls served from its contract, as moto serves a service from its model: each
// operation the contract names is routed at its method and path to the handler of the same
// name, with the operation's body check attached. A collection then says only what the service
// does; the method, the path, the task type and the key that lists what a task makes are the
// contract's, and a handler the contract does not name, or an operation with no handler, stops
// the emulator at startup rather than answering 404 or 405 to the first client that calls it.
import {
  type BodyContract,
  type CallContract,
  type Contract,
  type ObjectType,
  operationsOf,
  type ResolvedOperation,
} from "../api/contract";
import type { ApiRecord } from "../api/guards";
import { type Call, checkedBody, type Reply, type RequestContext, type Router, type Services } from "./router";
import { isResourceKind } from "./tasks";
import { type InvalidFields, validator } from "./validation";

/** What the service does on one operation. */
export type OperationHandler = (services: Services, call: Call) => Reply;

/** What the service does on each operation of a contract, by the operation's name. */
export interface OperationHandlers {
  readonly create?: OperationHandler;
  readonly list?: OperationHandler;
  readonly get?: OperationHandler;
  readonly update?: OperationHandler;
  readonly delete?: OperationHandler;
  readonly more?: Readonly<Record<string, OperationHandler>>;
}

/**
 * A body check other than the contract's own: the table of a record's part (a pool's health
 * monitor), or a check that reads what the service holds (a quota setting's known members).
 */
export type BodyRule = BodyContract | ObjectType | ((body: unknown, services: Services, ctx: RequestContext) => InvalidFields);

/**
 * A resource as the emulator serves it: its contract, what the service does, and bodies not
 * checked by the contract's table. A read-only record's contract (`ReadOnlyContract`) has no body
 * to check: its calls are GETs.
 */
export interface Served<C extends CallContract = Contract> {
  readonly contract: C;
  readonly operations: OperationHandlers;
  /** By operation name; only operations with a body (POST, PATCH, PUT) have one. */
  readonly bodies?: Readonly<Record<string, BodyRule>>;
  /**
   * The kind that serves this one's calls that have no handler here: a kind whose records are
   * another's, seen another way (a policy's name and status, one volume's membership of a
   * policy), shares that kind's calls, and the service has each once. Every such call must be
   * one of that kind's (the same method and path).
   */
  readonly servedBy?: Served;
}

const hasBody = (op: ResolvedOperation): boolean => op.method === "POST" || op.method === "PATCH" || op.method === "PUT";

/**
 * The check of an operation's body by a table: a whole record for POST and PUT, some fields
 * for PATCH; PATCH and PUT refuse the record's own fields by name.
 */
export function tableCheck(contract: Contract, op: ResolvedOperation, table: BodyContract | ObjectType = contract) {
  const readOnly = op.method === "POST" ? [] : Object.keys(contract.record);
  return validator(table, op.method === "PATCH" ? "patch" : "create", readOnly);
}

/** The check the registration attaches to one of a contract's operations by name (what tests check bodies with). */
export function requestCheck(contract: Contract, name: string, table?: BodyContract | ObjectType): (body: unknown) => InvalidFields {
  const op = operationsOf(contract).find((o) => o.name === name);
  if (!op || !hasBody(op)) throw new Error(`${contract.name} has no operation "${name}" with a body`);
  return tableCheck(contract, op, table);
}

const MAIN = ["create", "list", "get", "update", "delete"] as const;

function handlerOf(handlers: OperationHandlers, name: string): OperationHandler | undefined {
  const main = MAIN.find((m) => m === name);
  return main ? handlers[main] : handlers.more?.[name];
}

const callOf = (op: ResolvedOperation) => `${op.method} ${op.template}`;

/** An operation with no handler here: served by `servedBy` when that kind has the same call, else a problem. */
function unhandled(served: Served<CallContract>, op: ResolvedOperation): string | undefined {
  const by = served.servedBy;
  if (!by) return `operation ${op.name} (${callOf(op)}) has no handler`;
  if (operationsOf(by.contract).some((o) => callOf(o) === callOf(op))) return undefined;
  return `operation ${op.name} (${callOf(op)}) has no handler, and is not one of ${by.contract.name}'s, which serves its other calls`;
}

/**
 * The resource whose handler answers one of `served`'s operations: its own, or, for a call it
 * shares, that of the kind its `servedBy` leads to (the docs' API table names it).
 */
export function servingContract(served: Served<CallContract>, name: string): CallContract | undefined {
  if (handlerOf(served.operations, name)) return served.contract;
  const op = operationsOf(served.contract).find((o) => o.name === name);
  const by = served.servedBy;
  const same = op && by && operationsOf(by.contract).find((o) => callOf(o) === callOf(op));
  return same && by ? servingContract(by, same.name) : undefined;
}

/** Everything wrong between a contract's operations and what serves them, in words. */
export function servingProblems(served: Served<CallContract>): string[] {
  const { contract, operations, bodies = {} } = served;
  const ops = operationsOf(contract);
  const named = new Set(ops.map((op) => op.name));
  const given = [...MAIN.filter((m) => operations[m] !== undefined), ...Object.keys(operations.more ?? {})];
  return [
    ...ops.filter((op) => !handlerOf(operations, op.name)).flatMap((op) => unhandled(served, op) ?? []),
    ...given.filter((name) => !named.has(name)).map((name) => `a handler for ${name}, which the contract's operations do not name`),
    ...Object.keys(bodies)
      .filter((name) => !ops.some((op) => op.name === name && hasBody(op)))
      .map((name) => `a body check for ${name}, which is no operation of the contract with a body`),
    ...ops
      .filter((op) => hasBody(op) && !isKindContract(contract))
      .map((op) => `operation ${op.name} (${callOf(op)}) has a body, which only a kind's contract (its fields) can check`),
    ...ops
      .filter((op) => op.created !== undefined && !isResourceKind(op.created))
      .map((op) => `operation ${op.name}'s created key "${String(op.created)}" is no kind the API reports in created_resources`),
  ];
}

/** One call, one handler: a second route of a call would never be reached (the first route matched answers). */
export function assertEachRouteOnce(router: Router): void {
  const twice = router.list().filter((route, i, all) => all.indexOf(route) !== i);
  if (twice.length > 0) throw new Error(`the emulator routes ${twice.join(", ")} twice: serve each call from one kind (servedBy)`);
}

/** Routes every operation of the resource's contract to its handler; throws at startup on any mismatch. */
export function serve(router: Router, services: Services, served: Served<CallContract>): void {
  const problems = servingProblems(served);
  if (problems.length > 0) throw new Error(`${served.contract.name}: ${problems.join("; ")}`);
  for (const op of operationsOf(served.contract)) {
    const handler = handlerOf(served.operations, op.name);
    if (!handler) continue; // served by servedBy, or refused by servingProblems
    const checked = bodyOf(served, op, services);
    router.add(op.method, op.template, (ctx) => handler(services, { ...ctx, op, checked: () => checked(ctx) }));
  }
}

/** A kind's contract, with fields a body is checked by; a read-only record's has none. */
const isKindContract = (contract: CallContract): contract is Contract => "fields" in contract && "record" in contract;

function bodyOf(served: Served<CallContract>, op: ResolvedOperation, services: Services): (ctx: RequestContext) => ApiRecord {
  const { contract } = served;
  if (!hasBody(op) || !isKindContract(contract)) {
    return () => {
      throw new Error(`${contract.name}: operation ${op.name} (${op.method}) has no body to check`);
    };
  }
  const rule = served.bodies?.[op.name];
  if (typeof rule === "function") return (ctx) => checkedBody(ctx, (body) => rule(body, services, ctx), contract);
  const check = tableCheck(contract, op, rule);
  // A part's table (a health monitor) canonicalizes its own fields, not the resource's.
  return (ctx) => checkedBody(ctx, check, rule ? { fields: rule.fields } : contract);
}
