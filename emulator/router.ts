// A small method + path router, the context handlers get, and the helpers they share.
import { HttpError, locked, notFound, validationError, type InvalidFields } from "./http-errors";
import type { Faults } from "./faults";
import type { CollectionName, Store } from "./store/store";
import { isResourceKind, type TaskEngine, type TaskPlan } from "./tasks";
import { isUuid4 } from "../api/net";
import { LIST_PAGE_MAX } from "../api/paths";
import { type ApiRecord, isRecord } from "../api/guards";
import type { BodyContract, ResolvedOperation } from "../api/contract";
import { canonicalBody } from "./validation";

export interface RequestContext {
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  body: unknown;
  now: number;
  requestId: string;
  /** The most records a list page holds (the server's cap; `limit` may ask for more). */
  pageSizeMax: number;
}

export interface Reply {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: RequestContext) => Reply;

/**
 * A request to one of a contract's operations (./serve.ts): which operation, so that the task
 * it starts and the key that lists what it makes are the contract's, and its body as that
 * operation checks it.
 */
export interface Call extends RequestContext {
  readonly op: ResolvedOperation;
  /** The JSON body, refused (400) with the operation's check's messages, in the spellings the service stores. */
  checked(): ApiRecord;
}

/** What route handlers work with. */
export interface Services {
  store: Store;
  engine: TaskEngine;
  faults: Faults;
}

interface Route {
  method: string;
  pattern: string;
  segments: string[];
  handler: Handler;
}

export type Match = { route: Route; params: Record<string, string> } | { methodNotAllowed: string[] } | undefined;

export class Router {
  private readonly routes: Route[] = [];

  /** `pattern`: a path template of a contract or api/paths.ts (`{project_id}`), or `:project_id` style. */
  add(method: string, template: string, handler: Handler): void {
    const pattern = template.replace(/\{([a-z_]+)\}/g, ":$1");
    this.routes.push({ method, pattern, segments: pattern.split("/"), handler });
  }

  /** Every route as `METHOD /path/:param`, in the order added: what the docs' list of calls must name. */
  list(): string[] {
    return this.routes.map((r) => `${r.method} ${r.pattern}`);
  }

  match(method: string, path: string): Match {
    const parts = path.split("/");
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method) return { route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { methodNotAllowed: allowed } : undefined;
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i].startsWith(":")) {
      if (parts[i] === "") return undefined;
      let value: string;
      try {
        value = decodeURIComponent(parts[i]);
      } catch {
        return undefined; // Malformed percent-encoding: no such resource (404), not a crash (500).
      }
      params[pattern[i].slice(1)] = value;
    } else if (pattern[i] !== parts[i]) {
      return undefined;
    }
  }
  return params;
}

/** An integer path parameter (project_id, region_id, policy_id, client_id). */
export function intParam(ctx: RequestContext, name: string): number {
  const raw = ctx.params[name];
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw validationError({ [name]: ["A valid integer is required."] });
  }
  return Number(raw);
}

/** A uuid4 path parameter (pool_id, subnet and image ids). */
export function uuidParam(ctx: RequestContext, name: string): string {
  const raw = ctx.params[name];
  if (!isUuid4(raw)) throw validationError({ [name]: ["Must be a UUID (version 4)."] });
  return raw.toLowerCase();
}

export function requireValid(fields: InvalidFields): void {
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

export function bodyObject(ctx: RequestContext): Record<string, unknown> {
  if (!isRecord(ctx.body)) {
    throw new HttpError(400, "ValidationError", "Expected a JSON object.", { non_field_errors: ["Expected a JSON object."] });
  }
  return ctx.body;
}

/**
 * The request's JSON body, refused with its check's messages (validation.ts) if it breaks a
 * rule, in the spellings the service stores.
 */
export function checkedBody(ctx: RequestContext, check: (body: unknown) => InvalidFields, contract: BodyContract): ApiRecord {
  const raw = bodyObject(ctx);
  requireValid(check(raw));
  return canonicalBody(raw, contract);
}

/** The project and region a request's path names. */
export function scopeOf(ctx: RequestContext): { projectId: number; regionId: number } {
  return { projectId: intParam(ctx, "project_id"), regionId: intParam(ctx, "region_id") };
}

/** What the service adds to every record a create task makes in a scope: the task, the scope, the times. */
export function madeByTask(services: Services, scope: { projectId: number; regionId: number }, taskId: string, now: string): ApiRecord {
  return {
    creator_task_id: taskId,
    task_id: null,
    project_id: scope.projectId,
    region_id: scope.regionId,
    region: services.store.regionName(scope.regionId),
    created_at: now,
    updated_at: now,
  };
}

/**
 * A task an operation starts: the type is the operation's `task` and `created` lists under the
 * operation's `created` key, both from the contract.
 */
export type CallTask = Omit<TaskPlan, "taskType" | "createdResources"> & { created?: string[] };

/** The records a task makes, under its operation's `created` key. */
function madeBy(op: ResolvedOperation, created: string[] | undefined): TaskPlan["createdResources"] {
  if (created === undefined) return {};
  const key = op.created;
  if (key === undefined || !isResourceKind(key))
    throw new Error(`operation ${op.name} makes records, but its contract's created key is ${key === undefined ? "missing" : `"${key}"`}`);
  return { [key]: created };
}

/** Starts the operation's task for this request (applying any task fault set for it) and answers its id. */
export function startTask(services: Services, call: Call, plan: CallTask): Reply {
  const { created, ...rest } = plan;
  const taskType = call.op.task;
  // A programming error, not the caller's: the contract says which calls answer with a task.
  if (taskType === undefined) throw new Error(`operation ${call.op.name} starts a task, but its contract names no task type`);
  const createdResources = madeBy(call.op, created);
  const fault = services.faults.forTask(call.method, call.path);
  const task = services.engine.create({ ...rest, taskType, createdResources }, call.requestId, call.path, call.now, fault);
  if (!fault?.alongside) return { status: 200, body: { tasks: [task.id] } };
  // A second task of the same request that fails on its own, beside the one that works.
  const sibling = services.engine.create(
    { taskType, projectId: plan.projectId, regionId: plan.regionId, effects: [], locks: [], failWith: fault.message },
    call.requestId,
    call.path,
    call.now,
  );
  return { status: 200, body: { tasks: [task.id, sibling.id] } };
}

/** A record belongs to the project and region in the path, or it is not found. */
export function inScope(record: Record<string, unknown> | undefined, projectId: number, regionId: number): boolean {
  return record !== undefined && Number(record.project_id) === projectId && Number(record.region_id) === regionId;
}

/**
 * The record named by the path (`/{project_id}/{region_id}/{<idParam>}`), or 404 when it does
 * not exist in that project and region.
 */
export function findScoped(
  services: Services,
  ctx: RequestContext,
  collection: CollectionName,
  idParam: string,
  what: string,
  idKind: "uuid" | "int" = "uuid",
): ApiRecord {
  const projectId = intParam(ctx, "project_id");
  const regionId = intParam(ctx, "region_id");
  const id = idKind === "uuid" ? uuidParam(ctx, idParam) : intParam(ctx, idParam);
  const record = services.store.get(collection, id);
  if (!inScope(record, projectId, regionId)) throw notFound(what, id);
  return record!;
}

/** 409 when a running task holds this record. */
export function assertUnlocked(services: Services, collection: CollectionName, id: unknown, what: string): void {
  const task = services.engine.lockedBy(collection, id);
  if (task) throw locked(what, id, task.id);
}

/** DELETE of a record by a task: 409 while another task holds it; gone when the task finishes. */
export function deleteByTask(services: Services, call: Call, record: ApiRecord, collection: CollectionName, what: string): Reply {
  const id = String(record.id);
  assertUnlocked(services, collection, id, what);
  return startTask(services, call, {
    projectId: Number(record.project_id),
    regionId: Number(record.region_id),
    effects: [{ op: "delete", collection, id }],
    locks: [{ collection, id }],
  });
}

/**
 * A list call's answer (public reference): `{count, results}`, `count` being all matches,
 * `results` one page of them by `limit` (1..1000, default 1000) and `offset` (default 0). A
 * page holds at most the server's cap, whatever `limit` asks.
 */
export function listPage(ctx: RequestContext, records: ApiRecord[]): Reply {
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = ctx.query.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw validationError({ [name]: [`Must be an integer from ${min} to ${max}.`] });
    return Number(raw);
  };
  const limit = int("limit", LIST_PAGE_MAX, 1, LIST_PAGE_MAX);
  const offset = int("offset", 0, 0, Number.MAX_SAFE_INTEGER);
  return { status: 200, body: { count: records.length, results: records.slice(offset, offset + Math.min(limit, ctx.pageSizeMax)) } };
}

/** The records of a collection in the project and region of the path. */
export function listScoped(services: Services, ctx: RequestContext, collection: CollectionName): ApiRecord[] {
  const projectId = intParam(ctx, "project_id");
  const regionId = intParam(ctx, "region_id");
  return services.store.list(collection).filter((r) => inScope(r, projectId, regionId));
}
