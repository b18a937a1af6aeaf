// Calls and waiting, shared by every resource's methods: an asynchronous operation and the
// wait for its tasks, the synchronous PATCH (or read), DELETE through a task, refresh, and
// the wait for a create recorded while it still ran. Errors leave here in the resource's
// context (errors.ts).
import type * as pulumi from "@pulumi/pulumi";
import { processClock as clock } from "../client/clock";
import { CimsError, NotFoundError } from "../client/errors";
import type { RequestOptions } from "../client/http";
import type { TaskScope } from "../client/task-board";
import type { Task } from "../client/tasks";
import { apiClient, deadlineFor, type Operation, progress } from "./context";
import { inContext } from "./resource-errors";
import type { FieldRule } from "./diff";
import { type Inputs, userInputs } from "./schema";
import { refreshedInputs } from "./table";
import { type ApiRecord, stringsIn } from "../../api/guards";

/**
 * The state key of the tasks of a create recorded before they ended; internal (`__`), so no
 * diff or output shows it. States written before it used `pendingTaskIds`.
 */
export const PENDING_TASKS = "__pendingTaskIds";

/** The tasks a resource recorded mid-create still waits for. */
const pendingIn = (props: Inputs) => stringsIn(props[PENDING_TASKS] ?? props.pendingTaskIds);

export interface TaskOutcome {
  taskIds: string[];
  tasks: Task[];
}

/** Where a resource's tasks run, when its inputs say (a quota setting has no scope): their task list is watched. */
export function scopeOf(props: object): TaskScope | undefined {
  const projectId: unknown = Reflect.get(props, "projectId");
  const regionId: unknown = Reflect.get(props, "regionId");
  return typeof projectId === "number" && typeof regionId === "number" ? { projectId, regionId } : undefined;
}

/**
 * Calls an operation answering {tasks: [...]} and waits for every task to finish. `taskType`:
 * the type of the tasks it starts (its contract's), so their waits first look when alike tasks
 * ended (tasks.ts).
 */
export async function callAndWait(
  method: string,
  path: string,
  what: string,
  op: Operation,
  props: { timeouts?: Partial<Record<Operation, number>> },
  { taskType, ...opts }: RequestOptions & { taskType?: string } = {},
): Promise<TaskOutcome> {
  const { deadline, timeoutSeconds, raise } = deadlineFor(op, props);
  const client = apiClient();
  let postedAt: number | undefined;
  const taskIds = await client.taskIds(method, path, { ...opts, deadline, sent: () => (postedAt = clock.now()) });
  try {
    const tasks = await client.waitForTasks(taskIds, {
      deadline,
      timeoutSeconds,
      raise,
      onProgress: progress(what),
      scope: scopeOf(props),
      postedAt,
      taskType,
    });
    return { taskIds, tasks };
  } catch (err) {
    if (err instanceof CimsError) err.taskIds ??= taskIds;
    throw err;
  }
}

/** Runs `fn`; what it throws leaves in the resource's context (its name first, camelCase fields). */
export async function withContext<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw inContext(what, err);
  }
}

/**
 * A resource recorded from a create that had not finished (PENDING_TASKS): its tasks are
 * waited for before it is updated, so the update acts on the finished resource.
 */
export async function settlePending(what: string, olds: Inputs, op: Operation = "update"): Promise<void> {
  const pending = pendingIn(olds);
  if (pending.length === 0) return;
  const { deadline, timeoutSeconds, raise } = deadlineFor(op, olds);
  try {
    await apiClient().waitForTasks(pending, { deadline, timeoutSeconds, raise, onProgress: progress(what), scope: scopeOf(olds) });
  } catch (err) {
    throw inContext(
      what,
      err,
      `${what} was recorded when its create was still running; if the create failed, \`pulumi refresh\` drops it from the stack and the next \`pulumi up\` creates it again.`,
    );
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
    const record = await (opts.get ?? (() => apiClient().record("GET", path, { query: opts.query })))();
    const state = { ...userInputs(props), ...toState(record) };
    return { id, props: state, inputs: refreshedInputs(state, rules, opts.includeAuto) };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    // Recorded while its create still ran: not there yet is not gone.
    if (await stillCreating(props)) return { id, props };
    return { id: "", props: {} };
  }
}

/** Whether a resource recorded mid-create (PENDING_TASKS) still has a task running. */
async function stillCreating(props: Inputs): Promise<boolean> {
  const pending = pendingIn(props);
  for (const taskId of pending) {
    const task = await apiClient()
      .task(taskId)
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
  return Object.keys(body).length === 0 ? apiClient().record("GET", path, { query }) : apiClient().record("PATCH", path, { body, query });
}
