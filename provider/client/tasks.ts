// Waiting for asynchronous tasks. Every task is polled concurrently on an adaptive
// schedule that keeps the delay between "the task finished" and "we saw it" proportional
// to how long the task has run: the first look after ~200 ms, then each interval is 60% of
// the time elapsed so far, at most 1 s, until 10% of the elapsed time is longer; capped
// (5 s by default); +/-10% jitter. So a 0.3 s task is seen within ~0.05 s of its end, a
// 2 s task within ~0.3 s, a 20 s task within ~1 s in about as many requests as fixed 1 s
// polling (median), and a long task costs one request per 5 s. The parameters were chosen
// by simulating tasks of 0.3 s to 60 s (+/-10%) against fixed 1 s polling (a fixed 1.5x
// growth, as before, saw a 20 s task up to 5 s late). On top of that, a task of a type
// that finished before in this process is probed near when it should end (task-hints.ts).
// `npm run bench` measures it against fixed 1 s and 3 s polling. NEW, RUNNING and any state we do not
// know keep polling; FINISHED resolves; ERROR fails at once; the deadline fails naming
// what is still unfinished.
import { setTimeout as sleepMs } from "node:timers/promises";
import { InvalidResponseError, NotFoundError, TaskFailedError, TaskTimeoutError } from "./errors";
import { stringifyJson } from "./json";
import { type DurationHints, probeIn, processHints } from "./task-hints";

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
  firstPollMs?: number;
  pollCapMs?: number;
  /** How long a 404 for a task counts as "not visible yet" rather than an error. */
  notFoundGraceMs?: number;
  clock?: Clock;
  random?: () => number;
  /** What earlier tasks taught about durations per task type; the process-wide one by default. */
  hints?: DurationHints;
}

export type GetTask = (id: string, opts: { deadline: number; signal: AbortSignal }) => Promise<Task>;

/** Early on, the next look comes after this share of the elapsed time, at most STEADY_MS. */
const EARLY_SHARE = 0.6;
const STEADY_MS = 1_000;
/** Later, a fixed share of the elapsed time: the median lag stays about 5% of the task's length. */
const LATE_SHARE = 0.1;

type Settled = { id: string; done: true; task: Task } | { id: string; done: false; state: string | undefined };

export async function waitForTasks(getTask: GetTask, ids: string[], opts: WaitOptions): Promise<Task[]> {
  if (ids.length === 0) return [];
  // One failed task stops the polling of the others.
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  let results: Settled[];
  try {
    results = await Promise.all(ids.map((id) => pollOne(getTask, id, opts, signal)));
  } catch (err) {
    stop.abort();
    throw err;
  }
  const unfinished = results.filter((r): r is Extract<Settled, { done: false }> => !r.done);
  if (unfinished.length > 0) {
    throw new TaskTimeoutError(unfinished.map((r) => ({ id: r.id, state: r.state })), opts.timeoutSeconds);
  }
  return results.map((r) => (r as Extract<Settled, { done: true }>).task);
}

async function pollOne(getTask: GetTask, id: string, opts: WaitOptions, signal: AbortSignal): Promise<Settled> {
  const clock = opts.clock ?? systemClock;
  const random = opts.random ?? Math.random;
  const cap = opts.pollCapMs ?? 5_000;
  const started = clock.now();
  const graceEnd = started + (opts.notFoundGraceMs ?? 10_000);
  const firstPoll = opts.firstPollMs ?? 200;
  const hints = opts.hints ?? processHints;
  let interval = firstPoll * jitter(random);
  let state: string | undefined;
  let runningAt = 0; // the last time (ms into the wait) a GET went out and found it not done
  for (;;) {
    const wait = Math.min(interval, opts.deadline - clock.now());
    if (wait <= 0) return { id, done: false, state };
    await clock.sleep(wait, signal);
    signal.throwIfAborted();
    const sentAt = clock.now() - started;
    let task: Task;
    try {
      task = await getTask(id, { deadline: opts.deadline, signal });
    } catch (err) {
      // A task the API just created may not be readable for a moment.
      if (err instanceof NotFoundError && clock.now() < graceEnd) {
        interval = nextInterval(clock.now() - started, cap, random);
        continue;
      }
      throw err;
    }
    if (typeof task !== "object" || task === null || typeof task.state !== "string") {
      throw new InvalidResponseError(`GET task ${id}: the service answered without a task state; got ${(task === undefined ? "nothing" : stringifyJson(task)).slice(0, 200)}`);
    }
    if (task.state !== state) opts.onProgress?.({ taskId: id, state: task.state, previousState: state, task });
    state = task.state;
    if (state === "FINISHED") {
      hints.learn(task.task_type, { below: runningAt, by: clock.now() - started });
      return { id, done: true, task };
    }
    if (state === "ERROR") throw new TaskFailedError(id, task.task_type, errorText(task.error));
    runningAt = sentAt;
    const elapsed = clock.now() - started;
    // A probe due within two ordinary intervals (and the cap) replaces the ordinary look
    // rather than add one; a stale hint so delays a look by at most one ordinary interval.
    const ordinary = nextInterval(elapsed, cap, random);
    const probe = probeIn(hints.get(task.task_type), elapsed);
    interval = probe !== undefined && probe <= Math.min(2 * ordinary, cap) ? probe : ordinary;
  }
}

/** The service's error text; a structured error is shown as JSON rather than crashing the waiter. */
function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined;
  return typeof error === "string" ? error : stringifyJson(error);
}

/** The wait before the next look, given how long this task has been waited on. */
export function nextInterval(elapsedMs: number, cap: number, random: () => number): number {
  const base = Math.max(LATE_SHARE * elapsedMs, Math.min(EARLY_SHARE * elapsedMs, STEADY_MS));
  return Math.min(cap, Math.max(base, 1) * jitter(random));
}

/** +/-10%, so parallel waiters do not poll in step. */
const jitter = (random: () => number): number => 0.9 + 0.2 * random();
