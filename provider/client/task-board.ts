// Task waits through the task list: one `GET /cloud/v1/tasks` of a scope's running tasks
// (`state` NEW and RUNNING) answers every waiting task of the process in that scope, instead
// of one status read per task per look. A task the list shows still running needs no read of
// its own; one it does not show has ended (or is not listed yet, or in another scope) and is
// read by id once, for its `created_resources` and `error`. Once the list has shown one of our
// tasks running, the scope's next lists ask for every task created since the oldest such task
// (`from_timestamp`, the service's own `created_on`, so no clock of ours is compared with the
// service's): they show our tasks that ended too, with what they made or why they failed, and
// such a task needs no read of its own (50 subnets at --parallel 8 read 50 tasks by id beside
// 56 lists). A task the list does not show is read by id, as before. The list holds other
// teams' tasks too: only our own ids are looked up in it. A service without the list call (404,
// 405, 501) is asked no more, and every task falls back to its own read.
import { fits, TASK } from "./answers";
import { ApiError, NotFoundError } from "./errors";
import { type Clock, processClock } from "./clock";
import type { Listed, Task } from "./tasks";

export interface TaskScope {
  projectId: number;
  regionId: number;
}

/**
 * Reads every running task of a scope (NEW and RUNNING), every page; given `from` (a task's
 * `created_on` as the service wrote it), every task of the scope created since then, ended or not.
 */
export type ListRunning = (scope: TaskScope, from?: string) => Promise<Array<Record<string, unknown>>>;

interface Snapshot {
  /** When its request was (or will be) sent: a task that began waiting after that may not be in it. */
  sentAt: number;
  running: Promise<Map<string, Task> | undefined>;
  /** Looks still waiting for a list not sent yet; when the last leaves, it is not sent (`cancel`). */
  waiting: number;
  cancel?: () => void;
}

/** How long a list answers every look at a scope's tasks before the next look asks again. */
export const LIST_FRESH_MS = 250;
/**
 * The least time between two lists of a scope. A look that needs a newer list than the last
 * (the wait saw that one already) waits for the next, at most this long after the last: one
 * request per scope per tick for every wait, whatever their number (50 waits of 2 s tasks
 * looked about 35 times in 4 s; each of those asked for a list of its own).
 */
export const LIST_GAP_MS = 200;
/**
 * While the service limits the key (the pacer keeps to a rate), a list costs a turn that a
 * create or a delete could have had, and the run is bound by requests, not by how soon a task
 * is seen: lists then leave at least this many turns between them (at 10 a second, one list a
 * second; 50 subnets at --parallel 64 spent 1.7 task requests each with a list every 200 ms).
 */
export const LIST_TURNS_WHEN_PACED = 10;

/** The least time between two lists of a scope, given the rate the pacer keeps to (undefined: none). */
export function listGapMs(pacedRate: number | undefined): number {
  return pacedRate === undefined ? LIST_GAP_MS : Math.max(LIST_GAP_MS, (LIST_TURNS_WHEN_PACED * 1000) / pacedRate);
}

/**
 * How long a list due now waits for the looks that waits of the scope plan shortly after
 * (plan()), so that one list answers them all: alike tasks begun a little apart (the engine
 * starting creates one by one as slots free) end a little apart, and each end seen by a list
 * of its own cost a list a task (50 subnets at --parallel 8: three or four lists a wave).
 */
export const LIST_BATCH_MS = 250;

/** A task's `created_on` as a time: the service writes UTC with no zone. */
function createdAt(createdOn: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(createdOn) ? createdOn : `${createdOn}Z`);
}

const ended = (state: unknown) => state === "FINISHED" || state === "ERROR";

/**
 * A `created_on` the service showed in a scope, and when (clock time) its answer came: a task
 * whose create was sent after then was created at or after it, by the service's own time.
 */
interface Shown {
  at: number;
  createdOn: string;
}

/** How many of a scope's newest `created_on` are kept (one a second at most: the service writes whole seconds). */
const SHOWN_KEPT = 16;

/** A task of ours the lists reach back to: its `created_on`, and when a list first showed it ended (clock time). */
interface Followed {
  createdOn: string;
  endedSeenAt?: number;
}

/**
 * How long a task the lists showed ended stays followed, for its wait to take its end from a
 * list: longer than the longest interval between two looks (tasks.ts caps it at 5 s by default).
 */
const KEEP_ENDED_MS = 10_000;

export class TaskBoard {
  readonly #snapshots = new Map<string, Snapshot>();
  /** Per scope: our tasks a list showed running, until their wait took their end, with their `created_on`. */
  readonly #ours = new Map<string, Map<string, Followed>>();
  /** Per scope and task: the waits asleep that a list showing the task ended wakes. */
  readonly #endListeners = new Map<string, Set<() => void>>();
  /** Per scope and task: when its wait plans its next look (clock time). */
  readonly #plans = new Map<string, Map<string, number>>();
  /** Per scope: the newest `created_on` its lists and reads showed, oldest first. */
  readonly #shown = new Map<string, Shown[]>();
  #unsupported = false;

  constructor(
    private readonly listRunning: ListRunning,
    private readonly clock: Clock = processClock,
    /** The rate requests are paced to now (the pacer's), for the gap between lists. */
    private readonly pacedRate: () => number | undefined = () => undefined,
    /** Whether `listRunning` honours `from` (lists ended tasks too): else every ended task is read by id. */
    private readonly listsEnded = false,
  ) {}

  /**
   * Forgets the scopes' lists and the tasks they follow, as a new provider process knows none
   * (forgetRun: tests that play many deployments in one process, each on an emulator and a
   * clock of its own).
   */
  forget(): void {
    this.#snapshots.clear();
    this.#ours.clear();
    this.#shown.clear();
    this.#unsupported = false;
  }

  /**
   * What a read of our task by id found: one still running is followed from now on (a task
   * created before the oldest one the lists reach back to is not in them until then), one ended
   * no longer.
   */
  read(scope: TaskScope, task: Task): void {
    this.#note(scopeKey(scope), task.created_on);
    if (ended(task.state)) this.#ours.get(scopeKey(scope))?.delete(task.id);
    else this.#follow(scopeKey(scope), task);
  }

  /**
   * Our task, whose create was sent at `postedAt` (clock time, before the request took its
   * turn): the service made it at or after any task it had already shown us in the scope, so
   * the scope's lists reach back to the newest such task's `created_on` from its first look
   * and show its end with no read by id, whether or not a list ever shows it running (a wait
   * that first looks when alike tasks ended, tasks.ts, never sees it run). With nothing shown
   * before then, it is followed once a list shows it, as before.
   */
  expect(scope: TaskScope, id: string, postedAt: number): void {
    const key = scopeKey(scope);
    const before = this.#shown
      .get(key)
      ?.filter((s) => s.at < postedAt)
      .pop();
    if (before) this.#follow(key, { id, state: "NEW", created_on: before.createdOn });
  }

  /** Keeps a `created_on` the service showed now, when it is the scope's newest. */
  #note(key: string, createdOn: unknown): void {
    if (typeof createdOn !== "string" || Number.isNaN(createdAt(createdOn))) return;
    const shown = this.#shown.get(key) ?? [];
    this.#shown.set(key, shown);
    const newest = shown.at(-1);
    if (newest && createdAt(newest.createdOn) >= createdAt(createdOn)) return;
    // Several newer in one list: the newest replaces those noted at the same moment.
    while (shown.at(-1)?.at === this.clock.now()) shown.pop();
    shown.push({ at: this.clock.now(), createdOn });
    if (shown.length > SHOWN_KEPT) shown.shift();
  }

  /** While requests are paced, the least time between two lists of a scope (a look that misses an end waits that long for the next); undefined while not. */
  pacedGapMs(): number | undefined {
    const rate = this.pacedRate();
    return rate === undefined ? undefined : listGapMs(rate);
  }

  /** When the wait of a task of the scope plans its next look (clock time); undefined: it looks no more. */
  plan(scope: TaskScope, id: string, at: number | undefined): void {
    const key = scopeKey(scope);
    const plans = this.#plans.get(key) ?? new Map<string, number>();
    this.#plans.set(key, plans);
    if (at === undefined) plans.delete(id);
    else plans.set(id, at);
    if (plans.size === 0) this.#plans.delete(key);
  }

  /** The latest look planned within LIST_BATCH_MS after `now`, or `now`: when a list due now is sent. */
  #batched(key: string, now: number): number {
    let at = now;
    for (const planned of this.#plans.get(key)?.values() ?? []) if (planned > at && planned <= now + LIST_BATCH_MS) at = planned;
    return at;
  }

  /**
   * While paced: when a list that may go at `from` (now, or a gap after the last) is sent: at
   * the last look of the first burst planned after then that begins within a gap of `from`, or
   * at `from` when none does. The pacer spreads a wave's creates a turn apart, so their tasks
   * end a turn apart: lists a gap apart saw a wave's ends in two or three pieces (50 subnets at
   * --parallel 8 under 10 a second: 23 to 28 lists), one at a burst's end sees it whole. Looks
   * each within a gap of the one before are one burst, up to two gaps after `from`: a look left
   * out would wait for a list of its own, a gap after this one (8 creates a turn apart end over
   * 0.8 s, about a gap, and a create the engine began a few tenths of a second after its wave
   * ends as far after it; each cost a list a wave). A look waits at most two gaps longer for it.
   */
  #afterBurst(key: string, from: number, gap: number): number {
    const planned = [...(this.#plans.get(key)?.values() ?? [])].filter((p) => p > from && p <= from + 2 * gap).sort((a, b) => a - b);
    let at = planned[0] ?? from;
    if (at > from + gap) return from;
    for (const p of planned) {
      if (p - at > gap) break;
      at = p;
    }
    return at;
  }

  /** Wakes the waits asleep whose task a list of the scope showed ended: they take their end from it now. */
  #wakeEnded(scope: TaskScope, shown: Map<string, Task>): void {
    for (const [id, task] of shown) {
      if (!ended(task.state)) continue;
      for (const wake of [...(this.#endListeners.get(`${scopeKey(scope)} ${id}`) ?? [])]) wake();
    }
  }

  /** Calls `wake` when a list of the scope shows the task ended; answers what stops it. */
  onEnded(scope: TaskScope, id: string, wake: () => void): () => void {
    const key = `${scopeKey(scope)} ${id}`;
    const listeners = this.#endListeners.get(key) ?? new Set<() => void>();
    this.#endListeners.set(key, listeners);
    listeners.add(wake);
    return () => {
      listeners.delete(wake);
      if (listeners.size === 0 && this.#endListeners.get(key) === listeners) this.#endListeners.delete(key);
    };
  }

  /** Whether the scope's next list will show this task, ended or not, so its end needs no read by id. */
  showsEnd(scope: TaskScope, id: string): boolean {
    return this.#ours.get(scopeKey(scope))?.has(id) ?? false;
  }

  /**
   * The task as the scope's newest list shows it (running, or ended where the list reached back
   * to it), and when that list was asked for (`at`, epoch ms: what it shows is as of then);
   * undefined when the list does not show it (it ended: read it by id) or cannot be had. `since`: a list asked for before then is not
   * asked about it (when the wait began; after a look, just after the list that look used).
   */
  async running(scope: TaskScope, id: string, since: number, signal?: AbortSignal): Promise<Listed | undefined> {
    if (this.#unsupported) return undefined;
    const key = scopeKey(scope);
    const now = this.clock.now();
    let snapshot = this.#snapshots.get(key);
    if (!snapshot || snapshot.sentAt < since || now - snapshot.sentAt > LIST_FRESH_MS) {
      const rate = this.pacedRate();
      const gap = listGapMs(rate);
      const from = snapshot ? Math.max(now, snapshot.sentAt + gap) : now;
      const sentAt = rate === undefined ? Math.max(this.#batched(key, now), from) : this.#afterBurst(key, from, gap);
      snapshot = sentAt > now ? this.#later(key, scope, sentAt - now, snapshot) : { sentAt, running: this.#read(scope), waiting: 0 };
      this.#snapshots.set(key, snapshot);
    }
    // A look that stops waiting (its wait read the task by id instead, or was cancelled) leaves
    // a list not sent yet: one that no look waits for any more is a request nobody reads.
    const taken = snapshot;
    taken.waiting++;
    const leave = () => {
      if (--taken.waiting === 0) taken.cancel?.();
    };
    signal?.addEventListener("abort", leave, { once: true });
    try {
      const task = (await taken.running)?.get(id);
      if (task && !ended(task.state)) this.#follow(key, task);
      else if (task) this.#ours.get(key)?.delete(id);
      return task && { task, at: taken.sentAt };
    } finally {
      signal?.removeEventListener("abort", leave);
    }
  }

  /** A list to send `inMs` from now, after `last` (sent), unless every look waiting for it leaves first. */
  #later(key: string, scope: TaskScope, inMs: number, last: Snapshot | undefined): Snapshot {
    const stop = new AbortController();
    const snapshot: Snapshot = {
      sentAt: this.clock.now() + inMs,
      waiting: 0,
      running: this.clock.sleep(inMs, stop.signal).then(
        () => {
          snapshot.cancel = undefined; // sent: the looks still waiting get its answer
          return this.#read(scope);
        },
        () => undefined,
      ),
      cancel: () => {
        stop.abort();
        // The next look asks for a list of its own, a gap after the last one sent.
        if (this.#snapshots.get(key) !== snapshot) return;
        if (last) this.#snapshots.set(key, last);
        else this.#snapshots.delete(key);
      },
    };
    return snapshot;
  }

  /** Notes our task seen running, so the scope's lists from now on reach back to it. */
  #follow(key: string, task: Task): void {
    if (!this.listsEnded || typeof task.created_on !== "string" || Number.isNaN(createdAt(task.created_on))) return;
    const ours = this.#ours.get(key) ?? new Map<string, Followed>();
    this.#ours.set(key, ours);
    ours.set(task.id, { createdOn: task.created_on });
  }

  /**
   * The list's tasks by id: those running, and, when it reached back to our oldest task seen
   * running (`from`), those ended since. A task followed stays so until its wait takes its end
   * (running()), but no longer than KEEP_ENDED_MS after a list first showed it ended, nor once a
   * list that reached back to it does not show it (a wait that gave up on it, a service that
   * forgot it): no task keeps the lists reaching back when no wait will ask about it again.
   */
  async #read(scope: TaskScope): Promise<Map<string, Task> | undefined> {
    const ours = this.#ours.get(scopeKey(scope));
    const asked = [...(ours?.entries() ?? [])];
    const from = asked.length === 0 ? undefined : asked.map(([, f]) => f.createdOn).reduce((a, b) => (createdAt(b) < createdAt(a) ? b : a));
    try {
      const records = await this.listRunning(scope, from);
      const shown = new Map<string, Task>();
      for (const r of records) {
        if (typeof r.created_on === "string") this.#note(scopeKey(scope), r.created_on);
        if (fits(TASK, r) && (r.state === "NEW" || r.state === "RUNNING" || (from !== undefined && ended(r.state)))) shown.set(r.id, r);
      }
      const now = this.clock.now();
      for (const [id, followed] of from === undefined ? [] : asked) {
        if (ended(shown.get(id)?.state)) followed.endedSeenAt ??= now;
        if (!shown.has(id) || now - (followed.endedSeenAt ?? now) > KEEP_ENDED_MS) ours?.delete(id);
      }
      this.#wakeEnded(scope, shown);
      return shown;
    } catch (err) {
      // No list call here: every task is read by id from now on. Any other failure: this look
      // reads by id, and the next look asks the list again.
      if (err instanceof NotFoundError || (err instanceof ApiError && (err.status === 405 || err.status === 501))) this.#unsupported = true;
      return undefined;
    }
  }
}

const scopeKey = (scope: TaskScope) => `${scope.projectId}/${scope.regionId}`;
