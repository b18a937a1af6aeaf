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
// know keep polling, and so does a status read the service failed (5xx, 429, a dropped
// connection); FINISHED and ERROR end a task's wait. Every task's outcome is collected
// before anything fails, so a FINISHED task's created id is never lost to a sibling's ERROR;
// the error carries every task's last-seen record. A cancel (`signal`) ends the wait within
// seconds, after one last look at each task (what it creates, if it says so yet). Given a
// scope's task list (`listed`, task-board.ts), a look at a task the list shows running costs
// no request of its own: a task is read by id about once, when it has ended.
import {
  ApiError,
  CancelledError,
  CimsError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  TaskFailedError,
  TaskTimeoutError,
} from "./errors";
import { stringifyJson } from "../../api/json";
import { type Clock, processClock } from "./clock";
import { type Bracket, type EndRead, type DurationHints, MIN_PROBE_GAP_MS, probeIn, processHints } from "./task-hints";

export interface Task {
  id: string;
  state: string;
  task_type?: string;
  created_resources?: Record<string, unknown> | null;
  error?: unknown;
  [field: string]: unknown;
}

/** A task as its scope's list showed it running, and when that list was asked for (epoch ms). */
export interface Listed {
  task: Task;
  at: number;
}

export interface TaskProgress {
  taskId: string;
  state: string;
  previousState: string | undefined;
  task: Task;
}

export { type Clock, systemClock } from "./clock";

export interface WaitOptions {
  /** Epoch ms. */
  deadline: number;
  /** What the deadline came from, for the timeout message. */
  timeoutSeconds: number;
  /** How to raise that limit, said by the timeout message (see TaskTimeoutError). */
  raise?: string;
  /** A cancel: every task gets one last look, then the wait ends with CancelledError. */
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
  /**
   * The type the caller's tasks are (its operation's), for what alike tasks took to plan the
   * wait's looks before any look has shown the task's own type.
   */
  taskType?: string;
  /**
   * The task as its scope's task list shows it while it runs (task-board.ts), so a look costs
   * no read of its own, and when that list was asked for (`at`); undefined: read it by id.
   * `since` (epoch ms): only a list asked for at or after it may answer.
   */
  listed?: (id: string, since: number, signal?: AbortSignal) => Promise<Listed | undefined>;
  /** Whether the next list will show the task once it has ended (task-board.ts): its end then needs no read by id. */
  listShowsEnd?: (id: string) => boolean;
  /**
   * Calls `wake` when a list of the task's scope shows it ended (task-board.ts), so that a wait
   * asleep takes its end from that list at once rather than at its own next look (a list asked
   * for another wait's look shows every task of ours that ended); answers what stops it.
   */
  onEndListed?: (id: string, wake: () => void) => () => void;
  /** Told when the wait next looks at the task (clock time; undefined: it looks no more), so that a list due shortly before waits for it (task-board.ts). */
  planLook?: (id: string, at: number | undefined) => void;
  /**
   * How long a look that finds the task still running waits for the next list now (task-board.ts:
   * a second while requests are paced); undefined or 0: looks are cheap, probe as task-hints.ts says.
   */
  relookMs?: () => number | undefined;
}

export type GetTask = (id: string, opts: { deadline: number; signal: AbortSignal }) => Promise<Task>;

/** Early on, the next look comes after this share of the elapsed time, at most STEADY_MS. */
const EARLY_SHARE = 0.6;
const STEADY_MS = 1_000;
/** Later, a fixed share of the elapsed time: the median lag stays about 5% of the task's length. */
const LATE_SHARE = 0.1;

/**
 * After a cancel, how long a task still NEW is looked at again: the service names what a task
 * creates (`created_resources`) once it runs, and a create recorded with that id is not lost.
 */
export const CANCEL_LOOK_MS = 5_000;
const CANCEL_LOOK_EVERY_MS = 250;

/** How one task's wait ended. */
type Settled =
  | { id: string; kind: "finished"; task: Task }
  | { id: string; kind: "error"; task: Task }
  | { id: string; kind: "timeout"; task?: Task; lastError?: Error }
  | { id: string; kind: "cancelled"; task?: Task; lastError?: Error }
  | { id: string; kind: "unreadable"; task?: Task; error: Error };

/**
 * Waits for every task to end. A task that ends in ERROR does not stop the others: every
 * task's outcome is collected first, so what a FINISHED sibling created is never lost. The
 * error thrown carries every task's last-seen record (`tasks`).
 */
export async function waitForTasks(getTask: GetTask, ids: string[], opts: WaitOptions): Promise<Task[]> {
  if (ids.length === 0) return [];
  const results = await Promise.all(ids.map((id) => pollOne(getTask, id, opts).finally(() => opts.planLook?.(id, undefined))));
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
  const unfinished = results
    .filter((r): r is Extract<Settled, { kind: "timeout" | "cancelled" }> => r.kind === "timeout" || r.kind === "cancelled")
    .map((r) => ({ id: r.id, state: r.task?.state, lastError: r.lastError?.message }));
  if (results.some((r) => r.kind === "cancelled")) return fail(new CancelledError(unfinished));
  if (unfinished.length > 0) return fail(new TaskTimeoutError(unfinished, opts.timeoutSeconds, opts.raise));
  return results.map((r) => r.task!);
}

/**
 * `p`, or a rejection as soon as `signal` aborts. The scope's task list is shared by every wait
 * of the process (and, while paced, may be a second or more away), so one wait's cancel must not
 * cancel it: it runs on for the others, and this wait stops waiting for it. Hand-written because
 * Node offers no race against a signal that also removes its listener when `p` settles (a look
 * happens many times a wait; `events.once` would leave one listener per look).
 */
function orAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const LATE = Symbol("late");

/**
 * The list's answer, as orAborted gives it, or LATE when `until` (clock time) comes first and
 * `leave()` agrees then (else the look waits on for the list). The list goes on for the other
 * waits; `list`'s signal says this look no longer waits for it (a list not sent yet that no look
 * waits for is not sent: task-board.ts).
 */
async function listedOrLate(
  list: (signal: AbortSignal) => Promise<Listed | undefined>,
  until: number | undefined,
  leave: () => boolean,
  clock: Clock,
  signal: AbortSignal,
): Promise<Listed | undefined | typeof LATE> {
  const look = new AbortController();
  try {
    if (until === undefined) return await orAborted(list(look.signal), signal);
    const late = new Promise<typeof LATE>((resolve) => {
      clock.sleep(Math.max(0, until - clock.now()), look.signal).then(
        () => {
          // Not once the list answered: what leave() claims must be read, and told.
          if (!look.signal.aborted && leave()) resolve(LATE);
        },
        () => undefined, // stopped: the list answered first
      );
    });
    return await Promise.race([orAborted(list(look.signal), signal), late]);
  } finally {
    look.abort();
  }
}

/** Whether a task read had ended; undefined when the read shows no known state. */
function hasEnded(task: unknown): boolean | undefined {
  const state = typeof task === "object" && task !== null && "state" in task ? task.state : undefined;
  return state === "FINISHED" || state === "ERROR" ? true : state === "NEW" || state === "RUNNING" ? false : undefined;
}

/** A task-status read that may succeed if tried again (the service's 5xx or 429, a dropped connection). */
function transient(err: unknown): boolean {
  return (err instanceof ApiError && (err.status >= 500 || err.status === 429)) || err instanceof ConnectionError;
}

/** What one wait holds constant: its options, with their defaults. */
interface Waiting {
  getTask: GetTask;
  clock: Clock;
  random: () => number;
  firstPollMs: number;
  pollCapMs: number;
  hints: DurationHints;
  taskType: string | undefined;
  signal: AbortSignal;
  deadline: number;
  listed: WaitOptions["listed"];
  listShowsEnd: WaitOptions["listShowsEnd"];
  onEndListed: WaitOptions["onEndListed"];
  planLook: WaitOptions["planLook"];
  relookMs: WaitOptions["relookMs"];
  onProgress: WaitOptions["onProgress"];
}

/** What a task's wait has seen so far, carried from one look to the next. */
interface Watch {
  id: string;
  /** When the wait began (clock time), and until when a 404 means "not visible yet". */
  started: number;
  graceEnd: number;
  last?: Task;
  lastError?: Error;
  /** The last time (ms into the wait) a look found the task not done. */
  runningAt: number;
  /**
   * When the last look saw the task as it was (ms into the wait): a list shared by several
   * waits may be a little older than the look that used it, and the next look is scheduled from
   * what it showed, not from when it was read (else a task ending just after the list was asked
   * for is seen a whole interval late).
   */
  lookedAt: number;
  /** The next look needs a list asked for at or after this (clock time). */
  listedSince: number;
  /** Whether this wait has read its task by id at a duration hint's end (once a wait at most). */
  readAtHintEnd: boolean;
  /** Whether the next look comes at once after a wake by a duration learned (sleepUnlessLearned). */
  woken: boolean;
}

/** How a look at a duration hint's end goes, decided as the look begins. */
interface Probe {
  taskType: string | undefined;
  /** When alike tasks had all ended (clock time, less MIN_PROBE_GAP_MS); undefined: no trusted hint. */
  hintEnd: number | undefined;
  atEnd: boolean;
  /** The claim of this type's one read at a hint's end, told what the read found. */
  endRead: EndRead | undefined;
}

/** A look's outcome: the task read, the wait's end, or "again" (a read to try again on the schedule). */
type Look = { task: Task } | { settled: Settled } | "again";

async function pollOne(getTask: GetTask, id: string, opts: WaitOptions): Promise<Settled> {
  const waiting = waitingOf(getTask, opts);
  const started = waiting.clock.now();
  const watch: Watch = {
    id,
    started,
    graceEnd: started + (opts.notFoundGraceMs ?? 10_000),
    runningAt: 0,
    lookedAt: 0,
    listedSince: started,
    readAtHintEnd: false,
    woken: false,
  };
  for (;;) {
    const next = await untilNextLook(watch, waiting);
    if (next === "deadline") return { id, kind: "timeout", task: watch.last, lastError: watch.lastError };
    if (next === "replan") continue;
    if (waiting.signal.aborted) return lastLook(getTask, id, watch.last, watch.lastError, waiting.clock);
    const look = await lookOnce(watch, waiting);
    if (look === "again") continue;
    const settled = "settled" in look ? look.settled : afterRead(watch, waiting, look.task);
    if (settled) return settled;
  }
}

function waitingOf(getTask: GetTask, opts: WaitOptions): Waiting {
  return {
    getTask,
    clock: opts.clock ?? processClock,
    random: opts.random ?? Math.random,
    firstPollMs: opts.firstPollMs ?? 200,
    pollCapMs: opts.pollCapMs ?? 5_000,
    hints: opts.hints ?? processHints,
    taskType: opts.taskType,
    signal: opts.signal ?? new AbortController().signal,
    deadline: opts.deadline,
    listed: opts.listed,
    listShowsEnd: opts.listShowsEnd,
    onEndListed: opts.onEndListed,
    planLook: opts.planLook,
    relookMs: opts.relookMs,
    onProgress: opts.onProgress,
  };
}

/** The task's type as its last look showed it, or as the caller expects it before any look. */
const typeOf = (w: Watch, x: Waiting): string | undefined => w.last?.task_type ?? x.taskType;

/**
 * Sleeps until the next look is due on the schedule (nextDelay, from what the last look saw):
 * "look", "deadline" when the deadline comes first, or "replan" when a duration learned
 * meanwhile (another wait's task of the type ended) may bring the look forward.
 */
async function untilNextLook(w: Watch, x: Waiting): Promise<"look" | "deadline" | "replan"> {
  const type = typeOf(w, x);
  const hint = x.hints.get(type);
  const trusted = x.hints.endTrusted(type);
  const relookMs = x.relookMs?.();
  const due = nextDelay(w.lookedAt, { firstMs: x.firstPollMs, capMs: x.pollCapMs, hint, trusted, random: x.random, relookMs });
  const wait = Math.min(due - (x.clock.now() - w.started - w.lookedAt), x.deadline - x.clock.now());
  if (wait <= 0) return x.clock.now() >= x.deadline ? "deadline" : "look";
  x.planLook?.(w.id, x.clock.now() + wait);
  const woke = await sleepUntilLook(w, x, wait);
  w.woken = woke !== "slept";
  return woke === "learned" ? "replan" : "look";
}

/**
 * One look at the task: its scope's list, or a read by id, or both (the list, given up on at a
 * hint's end). A read that fails is tried again on the schedule while it may yet succeed.
 */
async function lookOnce(w: Watch, x: Waiting): Promise<Look> {
  w.lookedAt = x.clock.now() - w.started;
  const probe = probeAtHintEnd(w, x);
  w.woken = false;
  let task: Task;
  try {
    const listed = await fromList(w, x, probe);
    w.readAtHintEnd ||= probe.endRead !== undefined;
    if (listed) {
      w.lookedAt = Math.min(w.lookedAt, Math.max(0, listed.at - w.started));
      w.listedSince = listed.at + 1;
    }
    task = listed?.task ?? (await x.getTask(w.id, { deadline: x.deadline, signal: x.signal }));
    w.lastError = undefined;
  } catch (err) {
    return afterFailedRead(w, x, probe, err);
  }
  probe.endRead?.(hasEnded(task));
  return { task };
}

/**
 * By the end of a hint's bracket, alike tasks had all ended: a look then reads the task by
 * id (once a wait), since an ended task's read is due anyway and a list shows running tasks
 * only. A look waiting for the scope's next list (under a rate limit, a second or more away)
 * stops waiting at that end and reads by id instead. Until such a read found its task ended,
 * one is under way at a time for the type, and one that found its task still running stops
 * them until a task of the type takes longer (task-hints.ts). Not a look made at once on a
 * wake: the waits of a wave woken together share one list, as before.
 */
function probeAtHintEnd(w: Watch, x: Waiting): Probe {
  const taskType = typeOf(w, x);
  // A list that will show the task ended answers that look as well as a read, and serves every wait.
  const byList = x.listShowsEnd?.(w.id) ?? false;
  const hint: Bracket | undefined =
    byList || w.readAtHintEnd || w.woken || !x.hints.endTrusted(taskType) ? undefined : x.hints.get(taskType);
  const hintEnd: number | undefined = hint && w.started + hint.by - MIN_PROBE_GAP_MS;
  const atEnd = hintEnd !== undefined && x.clock.now() >= hintEnd;
  return { taskType, hintEnd, atEnd, endRead: atEnd ? x.hints.claimEnd(taskType) : undefined };
}

/**
 * The task as its scope's list shows it running; undefined when the look reads it by id: no
 * list, the list does not show it (it ended), the look claimed the read at the hint's end, or
 * the hint's end came before the list (LATE; the look is then as of now).
 */
async function fromList(w: Watch, x: Waiting, probe: Probe): Promise<Listed | undefined> {
  if (probe.endRead || !x.listed) return undefined;
  const ask = x.listed;
  const leave = () => (probe.endRead = x.hints.claimEnd(probe.taskType)) !== undefined;
  const until = probe.atEnd ? undefined : probe.hintEnd;
  const answer = await listedOrLate((look) => ask(w.id, w.listedSince, look), until, leave, x.clock, x.signal);
  if (answer !== LATE) return answer;
  w.lookedAt = x.clock.now() - w.started;
  return undefined;
}

/**
 * A look whose read failed. A task the API just created may not be readable for a moment; a
 * read the service failed (after the client's own retries) is tried again on the schedule
 * until the deadline: the task itself runs on regardless. A cancel ends the wait, after one
 * last look; any other failure ends it as unreadable.
 */
async function afterFailedRead(w: Watch, x: Waiting, probe: Probe, err: unknown): Promise<Look> {
  probe.endRead?.(undefined);
  if (x.signal.aborted) return { settled: await lastLook(x.getTask, w.id, w.last, w.lastError, x.clock) };
  if ((err instanceof NotFoundError && x.clock.now() < w.graceEnd) || transient(err)) {
    w.lastError = asError(err);
    return "again";
  }
  return { settled: { id: w.id, kind: "unreadable", task: w.last, error: asError(err) } };
}

/**
 * What a read of the task says: the wait's end (FINISHED, which teaches the type's duration;
 * ERROR; an answer with no task state), or undefined: it runs on, look again.
 */
function afterRead(w: Watch, x: Waiting, task: Task): Settled | undefined {
  if (typeof task !== "object" || task === null || typeof task.state !== "string") {
    const got = (task === undefined ? "nothing" : stringifyJson(task)).slice(0, 200);
    const error = new InvalidResponseError(`GET task ${w.id}: the service answered without a task state; got ${got}`);
    return { id: w.id, kind: "unreadable", task: w.last, error };
  }
  if (task.state !== w.last?.state) x.onProgress?.({ taskId: w.id, state: task.state, previousState: w.last?.state, task });
  w.last = task;
  if (task.state === "FINISHED") {
    x.hints.learn(task.task_type, { below: w.runningAt, by: x.clock.now() - w.started });
    return { id: w.id, kind: "finished", task };
  }
  if (task.state === "ERROR") return { id: w.id, kind: "error", task };
  w.runningAt = w.lookedAt;
  return undefined;
}

/**
 * Sleeps `ms`, or less: until `signal` aborts ("slept"), until the hints learn something new of
 * the task's type (another wait of that type saw its task end: "learned", the caller plans its
 * next look again), or until a scope's list shows the task ended ("shown": the caller looks at
 * once, and the list answers it). A hand-made signal rather than AbortSignal.any, whose
 * dependants of a long-lived signal (the process's cancellation) Node 20 keeps until it is collected.
 */
async function sleepUntilLook(w: Watch, x: Waiting, ms: number): Promise<"slept" | "learned" | "shown"> {
  if (x.signal.aborted) return "slept";
  const taskType = typeOf(w, x);
  const wake = new AbortController();
  let why: "slept" | "learned" | "shown" = "slept";
  const onAbort = () => wake.abort(x.signal.reason);
  x.signal.addEventListener("abort", onAbort, { once: true });
  const wakeFor = (reason: "learned" | "shown") => {
    why = reason;
    wake.abort();
  };
  const stopLearn = taskType === undefined ? undefined : x.hints.onLearn((type) => (type === taskType ? wakeFor("learned") : undefined));
  const stopShown = x.onEndListed?.(w.id, () => wakeFor("shown"));
  try {
    await x.clock.sleep(ms, wake.signal);
  } catch (err) {
    if (!wake.signal.aborted) throw err;
  } finally {
    x.signal.removeEventListener("abort", onAbort);
    stopLearn?.();
    stopShown?.();
  }
  return x.signal.aborted ? "slept" : why;
}

/**
 * After a cancel: the task as the service has it now (its read no longer cancellable, bounded
 * by CANCEL_LOOK_MS), looked at again while it is unseen or still NEW and names nothing. A task that
 * ended meanwhile ends as usual; one still running is "cancelled", with its latest record.
 */
async function lastLook(
  getTask: GetTask,
  id: string,
  last: Task | undefined,
  lastError: Error | undefined,
  clock: Clock,
): Promise<Settled> {
  const until = clock.now() + CANCEL_LOOK_MS;
  for (;;) {
    try {
      const task = await getTask(id, { deadline: until, signal: AbortSignal.timeout(CANCEL_LOOK_MS) });
      if (typeof task === "object" && task !== null && typeof task.state === "string") last = task;
    } catch (err) {
      lastError = asError(err);
    }
    if (last?.state === "FINISHED") return { id, kind: "finished", task: last };
    if (last?.state === "ERROR") return { id, kind: "error", task: last };
    const namesNothingYet = last === undefined || last.state === "NEW";
    if (!namesNothingYet || clock.now() + CANCEL_LOOK_EVERY_MS > until) return { id, kind: "cancelled", task: last, lastError };
    await clock.sleep(CANCEL_LOOK_EVERY_MS);
  }
}

/** What a failed read threw, as an Error (a thrown non-Error keeps its text). */
const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** The service's error text; a structured error is shown as JSON rather than crashing the waiter. */
function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined) return undefined;
  return typeof error === "string" ? error : stringifyJson(error);
}

/**
 * The whole schedule, as a pure function: how long to wait before the next look at a task
 * that has been waited on for `elapsedMs` (0: the first look). The ordinary look comes after
 * `firstMs`, then after 60% of the elapsed time (at most 1 s) until 10% of it is longer,
 * never over `capMs`, +/-10% jitter from `random` (0.5: none). A duration hint's probe due
 * within two ordinary intervals replaces the ordinary look (see task-hints.ts). While the task
 * has run less than alike tasks all ran (the hint's `below`) and its end is `trusted` (no read
 * there found a task still running), the probe is the only look: the ordinary looks before it
 * would find the task running, each a request (50 subnets at --parallel 8 spent a task list a
 * subnet on them). `relookMs`: how long a look that misses the end waits for the next (probeIn).
 */
export function nextDelay(
  elapsedMs: number,
  opts: { firstMs?: number; capMs?: number; hint?: Bracket; trusted?: boolean; random?: () => number; relookMs?: number } = {},
): number {
  const cap = opts.capMs ?? 5_000;
  const base = elapsedMs <= 0 ? (opts.firstMs ?? 200) : Math.max(LATE_SHARE * elapsedMs, Math.min(EARLY_SHARE * elapsedMs, STEADY_MS));
  const ordinary = Math.min(cap, Math.max(base, 1) * jitter(opts.random ?? (() => 0.5)));
  const probe = probeIn(opts.hint, elapsedMs, opts.relookMs);
  if (probe !== undefined && opts.trusted && elapsedMs < (opts.hint?.below ?? 0)) return Math.min(probe, cap);
  return probe !== undefined && probe <= Math.min(2 * ordinary, cap) ? probe : ordinary;
}

/** +/-10%, so parallel waiters do not poll in step. */
const jitter = (random: () => number): number => 0.9 + 0.2 * random();
