// What every resource operation shares: calling an asynchronous API operation and waiting
// for its tasks, reading created ids, errors that name the resource and speak camelCase,
// and the partial-creation error Pulumi turns into "created but failed to initialise".
import { isLosslessNumber } from "lossless-json";
import type * as pulumi from "@pulumi/pulumi";
import { BadRequestError, CimsError, ConnectionError, formatInvalidFields, NotFoundError, TaskTimeoutError } from "../client/errors";
import type { RequestOptions } from "../client/http";
import { CONNECT_FAILED } from "../client/transport";
import type { Task } from "../client/tasks";
import { apiClient, deadlineFor, type Operation, progress, scopeDefaults } from "./runtime";
import { changedFields, type FieldRule } from "./diff";
import type { CheckFailure, Inputs } from "./schema";

export interface TaskOutcome {
  taskIds: string[];
  tasks: Task[];
}

/** Calls an operation answering {tasks: [...]} and waits for every task to finish. */
export async function callAndWait(
  method: string,
  path: string,
  what: string,
  op: Operation,
  props: { timeouts?: Partial<Record<Operation, number>> },
  opts: RequestOptions = {},
): Promise<TaskOutcome> {
  const { deadline, timeoutSeconds } = deadlineFor(op, props);
  const client = apiClient();
  const answer = await client.request<{ tasks?: unknown }>(method, path, { ...opts, deadline });
  const taskIds = Array.isArray(answer?.tasks) ? answer.tasks.map(String) : [];
  const tasks = await client.waitForTasks(taskIds, { deadline, timeoutSeconds, onProgress: progress(what) });
  return { taskIds, tasks };
}

/** The id of what a finished task created (`created_resources.<kind>[0]`). */
export function createdId(outcome: TaskOutcome, kind: string, what: string): string {
  for (const task of outcome.tasks) {
    const ids = task.created_resources?.[kind];
    if (Array.isArray(ids) && ids.length > 0) return String(ids[0]);
  }
  throw new CimsError(
    `${what}: the task(s) ${outcome.taskIds.join(", ") || "(none)"} finished but reported no created ${kind}; ` +
      "nothing was recorded in the stack. Check the service for the resource before running `pulumi up` again.",
  );
}

/** snake_case field paths from the service, as the camelCase names users wrote. */
export function camelPath(path: string): string {
  return path.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Prefixes errors with the resource; a 400's invalid fields are shown in camelCase. */
export async function withContext<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BadRequestError && err.invalidFields) {
      const camel = Object.fromEntries(Object.entries(err.invalidFields).map(([k, v]) => [camelPath(k), v]));
      err.message = `${what}: the service rejected the request: ${formatInvalidFields(camel)} (${err.message})`;
    } else if (err instanceof Error && !err.message.startsWith(what)) {
      err.message = `${what}: ${err.message}`;
    }
    throw err;
  }
}

/**
 * Thrown when the service created the resource but a later step failed: Pulumi records
 * the resource (id and properties) as created-but-not-initialised instead of losing it.
 */
export class PartialCreateError extends CimsError {
  override readonly code = "CIMS_PARTIAL_CREATE";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** Outputs Pulumi can store: bigints as decimal strings, no undefined. */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint" || isLosslessNumber(value)) return String(value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/**
 * Every output named, undefined: pulumi.dynamic.Resource makes an Output property only for
 * keys present in its props, and undefined values are not sent as inputs.
 */
export function outputKeys(names: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined]));
}

/** projectId/regionId from the resource, else cims: config / env; a failure naming both when neither. */
export function scopeFailures(inputs: Inputs): { inputs: Inputs; failures: CheckFailure[] } {
  const defaults = scopeDefaults();
  const out = { ...inputs, projectId: inputs.projectId ?? defaults.projectId, regionId: inputs.regionId ?? defaults.regionId };
  const failures: CheckFailure[] = [];
  for (const key of ["projectId", "regionId"] as const) {
    if (out[key] === undefined) {
      failures.push({ property: key, reason: `${key} is required: set it on the resource, or set \`pulumi config set cims:${key} <id>\` (or CIMS_${key === "projectId" ? "PROJECT" : "REGION"}_ID)` });
    }
  }
  return { inputs: out, failures };
}

/** Tags as a merge patch: removed keys are sent as null. */
export function tagPatch(olds: unknown, news: unknown): Record<string, string | null> {
  const patch: Record<string, string | null> = { ...((news ?? {}) as Record<string, string>) };
  for (const key of Object.keys((olds ?? {}) as object)) if (!(key in patch)) patch[key] = null;
  return patch;
}


const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  if (typeof value === "object" && value !== null && !isLosslessNumber(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
  }
  return value;
}

/** Deep camelCase of keys. Only for API-defined shapes (never for tags: their keys are user data). */
export const camelKeys = (value: unknown): unknown => mapKeys(value, toCamel);
/** Deep snake_case of keys; the inverse of camelKeys for API-defined shapes. */
export const snakeKeys = (value: unknown): unknown => mapKeys(value, toSnake);

/**
 * The inputs a refresh records: the managed fields as the service now has them. Pulumi
 * shows `preview --diff` as old inputs vs new inputs (dynamic providers cannot send a
 * detailed diff), so without this a drifted field would not be highlighted. Fields left to
 * the service when omitted are not recorded unless `includeAuto` says the state only holds
 * them when the user gave them.
 */
export function refreshedInputs(state: Inputs, rules: FieldRule[], includeAuto = false): Inputs {
  const inputs: Inputs = {};
  for (const rule of rules) {
    if (rule.autoWhenOmitted && !includeAuto) continue;
    if (state[rule.name] !== undefined) inputs[rule.name] = state[rule.name];
  }
  return inputs;
}

type ApiRecord = Record<string, unknown>;

/** Inputs without Pulumi's bookkeeping, for outputs. */
export function withoutProvider(inputs: Inputs): Inputs {
  const { __provider: _p, ...rest } = inputs;
  return rest;
}

/**
 * Create through a task, then read the new record back. If the read fails, the resource
 * exists anyway: the error carries its id and properties so Pulumi records it.
 */
export async function createViaTask(
  what: string,
  inputs: Inputs,
  call: { path: string; body: Record<string, unknown>; kind: string; recordPath: (id: string) => string },
  toOutputs: (record: ApiRecord, taskIds: string[]) => Inputs,
): Promise<pulumi.dynamic.CreateResult> {
  return withContext(what, async () => {
    const outcome = await callAndWait("POST", call.path, what, "create", inputs, { body: call.body }).catch((err: unknown) => {
      throw mayExist(err, what);
    });
    const id = createdId(outcome, call.kind, what);
    try {
      return { id, outs: toOutputs(await apiClient().request<ApiRecord>("GET", call.recordPath(id)), outcome.taskIds) };
    } catch (err) {
      throw new PartialCreateError(`${what} was created (id ${id}) but reading it back failed: ${(err as Error).message}`, id, {
        ...inputs,
        taskIds: outcome.taskIds,
      });
    }
  });
}

/**
 * A create whose answer was lost (timeout, dropped connection) or whose task outlived its
 * deadline may still have made the resource, and the stack cannot know its id: say so.
 */
function mayExist(err: unknown, what: string): unknown {
  if (err instanceof ConnectionError && !CONNECT_FAILED.has(err.causeCode ?? "")) {
    err.message += `. The service may have created ${what} before the answer was lost; it is not in the stack. Check the service before running \`pulumi up\` again (delete it, or adopt it with \`pulumi import\`).`;
  } else if (err instanceof TaskTimeoutError) {
    err.message += ` If the task finishes later, ${what} will exist outside the stack: delete it, or adopt it with \`pulumi import\`.`;
  }
  return err;
}

/** DELETE through a task; a resource that is already gone counts as deleted. */
export async function deleteViaTask(what: string, path: string, props: Inputs): Promise<void> {
  await withContext(what, async () => {
    try {
      await callAndWait("DELETE", path, what, "delete", props);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  });
}

/** Refresh: the record as the service has it now, or an empty id when it is gone. */
export async function readOrGone(
  id: string,
  props: Inputs,
  path: string,
  toState: (record: ApiRecord) => Inputs,
  rules: FieldRule[],
  opts: { includeAuto?: boolean; query?: Record<string, string | number | boolean | undefined> } = {},
): Promise<pulumi.dynamic.ReadResult> {
  try {
    const record = await apiClient().request<ApiRecord>("GET", path, { query: opts.query });
    const state = { ...withoutProvider(props), ...toState(record) };
    return { id, props: state, inputs: refreshedInputs(state, rules, opts.includeAuto) };
  } catch (err) {
    if (err instanceof NotFoundError) return { id: "", props: {} };
    throw err;
  }
}

/**
 * The PATCH body of an in-place update: the changed fields that `wireName` maps (the rest
 * cannot change in place), tags as a merge patch where removed keys are null.
 */
export function patchBody(olds: Inputs, news: Inputs, rules: FieldRule[], wireName: (field: string) => string | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const rule of changedFields(olds, news, rules)) {
    const wire = wireName(rule.name);
    if (wire) body[wire] = rule.name === "tags" ? tagPatch(olds.tags, news.tags) : news[rule.name];
  }
  return body;
}

/**
 * The synchronous in-place update (PATCH returns the record). With nothing to PATCH (only
 * `timeouts` changed, or the update that follows a partial create) the record is read
 * instead, so outputs the service fills are never left stale or missing.
 */
export function patchOrRead(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  return Object.keys(body).length === 0 ? apiClient().request("GET", path) : apiClient().request("PATCH", path, { body });
}
