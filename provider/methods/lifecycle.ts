// The calls every resource's methods share: an asynchronous operation and the wait for its
// tasks, the created id, create/delete through a task, refresh, the synchronous PATCH, and
// errors that name the resource and speak camelCase.
import type * as pulumi from "@pulumi/pulumi";
import { camelPath } from "../../api/names";
import {
  ApiError,
  BadRequestError,
  CimsError,
  ConnectionError,
  formatInvalidFields,
  NotFoundError,
  PartialCreateError,
  type SeenTask,
  TaskFailedError,
} from "../client/errors";
import type { RequestOptions } from "../client/http";
import type { Task } from "../client/tasks";
import { CONNECT_FAILED } from "../client/transport";
import { apiPath } from "../client/path";
import { apiClient, currentSettings, deadlineFor, type Operation, progress, scopeDefaults } from "./context";
import type { FieldRule } from "./diff";
import { type Before, recover, type Survey, unfinishedIn } from "./ours";
import type { CheckFailure, Inputs } from "./schema";

type ApiRecord = Record<string, unknown>;

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
  try {
    return { taskIds, tasks: await client.waitForTasks(taskIds, { deadline, timeoutSeconds, onProgress: progress(what) }) };
  } catch (err) {
    if (err instanceof CimsError) err.taskIds ??= taskIds;
    throw err;
  }
}

/** The id a task lists in `created_resources.<kind>` (listed while it runs, or once it ended). */
export function createdIdIn(tasks: ReadonlyArray<SeenTask> | undefined, kind: string): string | undefined {
  for (const task of tasks ?? []) {
    const ids = task.created_resources?.[kind];
    if (Array.isArray(ids) && ids.length > 0) return String(ids[0]);
  }
  return undefined;
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

/** projectId/regionId from the resource, else cims: config / env; a failure naming both when neither. */
export function withScope(inputs: Inputs): { inputs: Inputs; failures: CheckFailure[] } {
  let defaults: { projectId?: number; regionId?: number };
  try {
    defaults = scopeDefaults();
  } catch (err) {
    // A malformed cims:projectId/regionId: say so where the resource needs it.
    const failures = (["projectId", "regionId"] as const)
      .filter((key) => inputs[key] === undefined && (err as Error).message.includes(`cims:${key}`))
      .map((property) => ({ property, reason: `${property}: ${(err as Error).message}` }));
    return { inputs, failures };
  }
  const out = { ...inputs, projectId: inputs.projectId ?? defaults.projectId, regionId: inputs.regionId ?? defaults.regionId };
  const failures: CheckFailure[] = [];
  for (const key of ["projectId", "regionId"] as const) {
    if (out[key] === undefined) {
      failures.push({
        property: key,
        reason: `${key} is required: set it on the resource, or set \`pulumi config set cims:${key} <id>\` (or CIMS_${key === "projectId" ? "PROJECT" : "REGION"}_ID)`,
      });
    }
  }
  return { inputs: out, failures };
}

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

/** Inputs without Pulumi's bookkeeping, for outputs. */
export function withoutProvider(inputs: Inputs): Inputs {
  const { __provider: _p, ...rest } = inputs;
  return rest;
}

/** How to find a resource the stack could not record, in words and as the API call that lists it. */
export type FindHint = string;

/**
 * Create through a task, then read the new record back. Whatever fails after the service may
 * have made the resource, the resource is not lost, and nothing that is not this create's is
 * taken (ours.ts):
 * - a task names its id (a FINISHED sibling of a task that failed, a task still running at
 *   the deadline, one that ended in ERROR after creating it): the error carries the id and
 *   properties so Pulumi records it and the next `up` continues from it;
 * - every task ended and none made it (a task in ERROR): a plain failure with the service's
 *   message, nothing recorded, nothing looked for;
 * - the outcome is unknown (no task id came back from a POST the service may have acted on,
 *   or a task could not be read to its end): the record is looked for by evidence (`recover`),
 *   and when none is found the error says how to find it.
 */
export async function createViaTask(
  what: string,
  inputs: Inputs,
  call: {
    path: string;
    body: ApiRecord;
    kind: string;
    recordPath: (id: string) => string;
    find: FindHint;
    /** The records that existed before the POST, and how to recognise ours among later ones. */
    survey?: Survey;
  },
  toOutputs: (record: ApiRecord, taskIds: string[]) => Inputs,
  prior?: Before,
): Promise<pulumi.dynamic.CreateResult> {
  return withContext(what, async () => {
    let outcome: TaskOutcome;
    try {
      outcome = await callAndWait("POST", call.path, what, "create", inputs, { body: call.body });
    } catch (err) {
      if (!(err instanceof CimsError)) throw err;
      const known = createdIdIn(err.tasks, call.kind);
      if (known !== undefined) throw partialCreate(what, known, err, inputs);
      if (!outcomeUnknown(err)) throw err;
      const recovered = call.survey
        ? await recover(
            {
              what,
              inputs,
              survey: call.survey,
              recordPath: call.recordPath,
              outputs: toOutputs,
              partial: (id, e) => partialCreate(what, id, e, inputs),
            },
            err,
            prior,
          )
        : {};
      if (recovered.found) return recovered.found;
      throw mayExist(err, what, recovered.hint ? `${call.find}. ${recovered.hint}` : call.find);
    }
    const id = createdIdIn(outcome.tasks, call.kind);
    if (id === undefined) {
      throw new CimsError(
        `${what}: the task(s) ${outcome.taskIds.join(", ") || "(none)"} finished but reported no created ${call.kind}, so the stack ` +
          `cannot record it. ${call.find}. Adopt it by setting \`importId: "<its id>"\` on this resource (or delete it) before the next \`pulumi up\`.`,
      );
    }
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
 * The error for a resource that exists but whose create did not complete: it carries the id
 * and properties so Pulumi records it, and the tasks still running so the next `up` waits.
 */
export function partialCreate(what: string, id: string, err: CimsError, inputs: Inputs): PartialCreateError {
  const pending = unfinishedIn(err.tasks);
  return new PartialCreateError(
    `${what} was created (id ${id}, task(s) ${(err.taskIds ?? []).join(", ")}) but the create did not complete: ${err.message}. ` +
      `It is recorded in the stack; the next \`pulumi up\` continues from it${pending.length > 0 ? " once its task ends" : ""}.`,
    id,
    { ...inputs, taskIds: err.taskIds ?? [], ...(pending.length > 0 ? { pendingTaskIds: pending } : {}) },
  );
}

/**
 * A create whose outcome is unknown and whose resource was not found: it may exist, and the
 * stack cannot know it. Say so, with the task ids and the call that finds it.
 */
function mayExist(err: CimsError, what: string, find: FindHint): CimsError {
  const tasks = err.taskIds?.length
    ? ` Its task(s): ${err.taskIds.join(", ")} (GET /cloud/v1/tasks/<id>: created_resources names it once known).`
    : "";
  err.message +=
    `. The service may have created ${what}; it is not in the stack.${tasks} ${find}. ` +
    'Adopt it by setting `importId: "<its id>"` on this resource (or delete it) before the next `pulumi up`, which would otherwise create another.';
  return err;
}

/**
 * Whether a failed request may have been acted on: its answer was lost (a reset after
 * sending, no answer in time) or was a server or gateway error. A request the service never
 * saw (connection refused, no key) or refused outright (4xx) changed nothing.
 */
export function mayHaveActed(err: unknown): boolean {
  if (err instanceof ConnectionError) return !CONNECT_FAILED.has(err.causeCode ?? "");
  return err instanceof ApiError && (err.status >= 500 || err.status === 408);
}

/**
 * Whether a create's outcome is unknown. With task ids: unless every task ended (a task in
 * ERROR with every sibling ended is a plain failure: the service says what went wrong and
 * that it made nothing), the tasks may still make it. Without: the POST may have been acted
 * on although its answer was lost.
 */
export function outcomeUnknown(err: CimsError): boolean {
  if ((err.taskIds?.length ?? 0) > 0) return !(err instanceof TaskFailedError) || unfinishedIn(err.tasks).length > 0;
  return mayHaveActed(err);
}

/**
 * A resource recorded from a create that had not finished (`pendingTaskIds`): its tasks are
 * waited for before it is updated, so the update acts on the finished resource.
 */
export async function settlePending(what: string, olds: Inputs, op: Operation = "update"): Promise<void> {
  const pending = Array.isArray(olds.pendingTaskIds) ? (olds.pendingTaskIds as string[]) : [];
  if (pending.length === 0) return;
  const { deadline, timeoutSeconds } = deadlineFor(op, olds);
  try {
    await apiClient().waitForTasks(pending, { deadline, timeoutSeconds, onProgress: progress(what) });
  } catch (err) {
    if (err instanceof CimsError) {
      err.message += `. ${what} was recorded when its create was still running; if the create failed, \`pulumi refresh\` drops it from the stack and the next \`pulumi up\` creates it again.`;
    }
    throw err;
  }
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
  opts: {
    includeAuto?: boolean;
    query?: Record<string, string | number | boolean | undefined>;
    /** How to read the record (a coalesced read); by default a GET of `path`. */
    get?: () => Promise<ApiRecord>;
  } = {},
): Promise<pulumi.dynamic.ReadResult> {
  try {
    const record = await (opts.get ?? (() => apiClient().request<ApiRecord>("GET", path, { query: opts.query })))();
    const state = { ...withoutProvider(props), ...toState(record) };
    return { id, props: state, inputs: refreshedInputs(state, rules, opts.includeAuto) };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    // Recorded while its create still ran: not there yet is not gone.
    if (await stillCreating(props)) return { id, props };
    return { id: "", props: {} };
  }
}

/** Whether a resource recorded mid-create (`pendingTaskIds`) still has a task running. */
async function stillCreating(props: Inputs): Promise<boolean> {
  const pending = Array.isArray(props.pendingTaskIds) ? (props.pendingTaskIds as string[]) : [];
  for (const taskId of pending) {
    const task = await apiClient()
      .request<SeenTask>("GET", apiPath(currentSettings().taskPath, { task_id: taskId }))
      .catch(() => undefined);
    if (task && task.state !== "FINISHED" && task.state !== "ERROR") return true;
  }
  return false;
}

/**
 * The synchronous in-place update (PATCH returns the record). With nothing to PATCH (only
 * `timeouts` changed, or the update that follows a partial create) the record is read
 * instead, so outputs the service fills are never left stale or missing.
 */
export function patchOrRead(path: string, body: ApiRecord, query?: RequestOptions["query"]): Promise<ApiRecord> {
  return Object.keys(body).length === 0 ? apiClient().request("GET", path, { query }) : apiClient().request("PATCH", path, { body, query });
}
