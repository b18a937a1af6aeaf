// Waiting for asynchronous tasks. Every task is polled concurrently on one schedule,
// nextDelay(): the first look after 0.5 s, the second at 1 s, then one a second until 10% of
// the time waited is longer (from 10 s on), at most 5 s apart; +/-10% jitter. It never makes
// more GETs than fixed 1 s polling: it is that schedule with the look at 0 s, which never
// finds a task done, moved to 0.5 s. Measured on the emulator with bench/task-lag.ts (what
// `npm run bench` runs; median lag from FINISHED to the waiter returning, median GETs; 30
// tasks per row, 15 at 20 s; each task its nominal length +/-10%), ours vs fixed 1 s polling:
//   0.3 s: 205 ms, 1 GET vs 699 ms, 2    2 s: 228 ms, 3 vs 140 ms, 3
//   10 s:  580 ms, 11.5  vs 522 ms, 11   20 s: 1219 ms, 19 vs 601 ms, 21
// From 1 s to 10 s both look at the same times (the 2 s medians are a coin flip: whether a
// task ends before or after the look at 2 s), and no schedule that knows nothing of the task
// can see it sooner there without more GETs. Below 1 s ours is better on both; past 10 s it
// makes fewer GETs for a lag of up to 10% of the time waited. The former schedule (first
// look at 0.2 s, growing 60% a look up to 1 s apart) saw 0.3 s tasks in 25 ms, but cost 6
// GETs at 2 s and 14 at 10 s for no lower lag; duration hints per task type (probes near an
// earlier task's end) were removed: on this schedule they did not lower the lag at equal
// GETs (2 s: 492 ms vs 280 ms, 10 s: 540 ms vs 348 ms, 30 tasks each).
// NEW, RUNNING and any state we do not know keep polling, and so does a status read the
// service failed (5xx, 429, a dropped connection); FINISHED and ERROR end a task's wait.
// Every task's outcome is collected before anything fails, so a FINISHED task's created id
// is never lost to a sibling's ERROR; the error carries every task's last-seen record.
import { setTimeout as sleepMs } from "node:timers/promises";
import { ApiError, CimsError, ConnectionError, InvalidResponseError, NotFoundError, TaskFailedError, TaskTimeoutError } from "./errors";
import { stringifyJson } from "../../api/json";

export interface Task {
  id: string;
  state: string;
  task_type?: string;
  created_resources?: Record<string, unknown> | null;
  error?: unknown;
  [field: string]: unknown;
}

export interface TaskProgress {
  taskId: string;
  state: string;
  previousState: string | undefined;
  task: Task;
}

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepMs(ms, undefined, { signal }),
};

export interface WaitOptions {
  /** Epoch ms. */
  deadline: number;
  /** What the deadline came from, for the timeout message. */
  timeoutSeconds: number;
  signal?: AbortSignal;
  /** Called on every state change of a task (the first sighting included). */
  onProgress?: (progress: TaskProgress) => void;
  /** How long a 404 for a task counts as "not visible yet" rather than an error. */
  notFoundGraceMs?: number;
  clock?: Clock;
  /** Jitter's source of uniform draws in [0, 1); Math.random by default. */
  random?: () => number;
}

export type GetTask = (id: string, opts: { deadline: number; signal: AbortSignal }) => Promise<Task>;

/** Fixed 1 s polling's budget of GETs, but the first look, which at 0 s never finds a task done, at 0.5 s. */
const FIRST_MS = 500;
const STEADY_MS = 1_000;
/** Past 10 s, a share of the time waited (lag up to 10% of it, fewer GETs than fixed 1 s), capped. */
const LATE_SHARE = 0.1;
const CAP_MS = 5_000;

/** How one task's wait ended. */
type Settled =
  | { id: string; kind: "finished"; task: Task }
  | { id: string; kind: "error"; task: Task }
  | { id: string; kind: "timeout"; task?: Task; lastError?: Error }
  | { id: string; kind: "unreadable"; task?: Task; error: Error };

/**
 * Waits for every task to end. A task that ends in ERROR does not stop the others: every
 * task's outcome is collected first, so what a FINISHED sibling created is never lost. The
 * error thrown carries every task's last-seen record (`tasks`).
 */
export async function waitForTasks(getTask: GetTask, ids: string[], opts: WaitOptions): Promise<Task[]> {
  if (ids.length === 0) return [];
  const results = await Promise.all(ids.map((id) => pollOne(getTask, id, opts)));
  const seen = results.map((r) => r.task ?? { id: r.id });
  const fail = (err: CimsError): never => {
    err.taskIds = ids;
    err.tasks = seen;
    throw err;
  };
  const failed = results.find((r) => r.kind === "error");
  if (failed)
    return fail(
      new TaskFailedError(
        failed.id,
        failed.task?.task_type,
        errorText(failed.task?.error),
        results.filter((r) => r.kind === "error").length - 1,
      ),
    );
  const unreadable = results.find((r): r is Extract<Settled, { kind: "unreadable" }> => r.kind === "unreadable");
  if (unreadable) return fail(unreadable.error instanceof CimsError ? unreadable.error : new CimsError(unreadable.error.message));
  const unfinished = results.filter((r): r is Extract<Settled, { kind: "timeout" }> => r.kind === "timeout");
  if (unfinished.length > 0) {
    return fail(
      new TaskTimeoutError(
        unfinished.map((r) => ({ id: r.id, state: r.task?.state, lastError: r.lastError?.message })),
        opts.timeoutSeconds,
      ),
    );
  }
  return results.map((r) => r.task!);
}

/** A task-status read that may succeed if tried again (the service's 5xx or 429, a dropped connection). */
function transient(err: unknown): boolean {
  return (err instanceof ApiError && (err.status >= 500 || err.status === 429)) || err instanceof ConnectionError;
}

/** One look at a task: its record, or why not (`retry`: look again on the schedule). */
type Look = { task: Task } | { retry: Error } | { fail: Error };

async function look(getTask: GetTask, id: string, deadline: number, signal: AbortSignal, inGrace: () => boolean): Promise<Look> {
  let task: Task;
  try {
    task = await getTask(id, { deadline, signal });
  } catch (err) {
    // A task the API just created may not be readable for a moment; a read the service
    // failed (after the client's own retries) is tried again on the schedule until the
    // deadline: the task itself runs on regardless.
    if ((err instanceof NotFoundError && inGrace()) || transient(err)) return { retry: err as Error };
    return { fail: err as Error };
  }
  if (typeof task !== "object" || task === null || typeof task.state !== "string") {
    const got = (task === undefined ? "nothing" : stringifyJson(task)).slice(0, 200);
    return { fail: new InvalidResponseError(`GET task ${id}: the service answered without a task state; got ${got}`) };
  }
  return { task };
}

async function pollOne(getTask: GetTask, id: string, opts: WaitOptions): Promise<Settled> {
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  const signal = opts.signal ?? new AbortController().signal;
  const started = clock.now();
  const graceEnd = started + (opts.notFoundGraceMs ?? 10_000);
  let last: Task | undefined;
  let lastError: Error | undefined;
  for (;;) {
    const wait = Math.min(nextDelay(clock.now() - started, random()), opts.deadline - clock.now());
    if (wait <= 0) return { id, kind: "timeout", task: last, lastError };
    await clock.sleep(wait, signal);
    signal.throwIfAborted();
    const seen = await look(getTask, id, opts.deadline, signal, () => clock.now() < graceEnd);
    if ("fail" in seen) return { id, kind: "unreadable", task: last, error: seen.fail };
    lastError = "retry" in seen ? seen.retry : undefined;
    if (!("task" in seen)) continue;
    const { task } = seen;
    if (task.state !== last?.state) opts.onProgress?.({ taskId: id, state: task.state, previousState: last?.state, task });
    last = task;
    if (task.state === "FINISHED") return { id, kind: "finished", task };
    if (task.state === "ERROR") return { id, kind: "error", task };
  }
}

/** The service's error text; a structured error is shown as JSON rather than crashing the waiter. */
function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined;
  return typeof error === "string" ? error : stringifyJson(error);
}

/**
 * The whole schedule, as a pure function: how long to wait before the next look at a task
 * that has been waited on for `elapsedMs` (0: the first look). The first look comes after
 * 0.5 s; then the wait doubles the time waited, up to 1 s; from 10 s on it is 10% of the
 * time waited, at most 5 s. `draw` (uniform in [0, 1); 0.5: none) gives +/-10% jitter, never
 * past the 5 s cap.
 */
export function nextDelay(elapsedMs: number, draw = 0.5): number {
  const base = elapsedMs <= 0 ? FIRST_MS : Math.max(LATE_SHARE * elapsedMs, Math.min(elapsedMs, STEADY_MS));
  return Math.min(CAP_MS, base * (0.9 + 0.2 * draw));
}
