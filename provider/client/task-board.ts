// Task waits through the task list: one `GET /cloud/v1/tasks` of a scope's running tasks
// (`state` NEW and RUNNING) answers every waiting task of the process in that scope, instead
// of one status read per task per look. A task the list shows still running needs no read of
// its own; one it does not show has ended (or is not listed yet, or in another scope) and is
// read by id once, for its `created_resources` and `error`. The list holds other teams' tasks
// too: only our own ids are looked up in it. A service without the list call (404, 405, 501)
// is asked no more, and every task falls back to its own read.
import { fits, TASK } from "./answers";
import { ApiError, NotFoundError } from "./errors";
import { type Clock, processClock } from "./clock";
import type { Listed, Task } from "./tasks";

export interface TaskScope {
  projectId: number;
  regionId: number;
}

/** Reads every running task of a scope (NEW and RUNNING), every page. */
export type ListRunning = (scope: TaskScope) => Promise<Array<Record<string, unknown>>>;

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

export class TaskBoard {
  readonly #snapshots = new Map<string, Snapshot>();
  #unsupported = false;

  constructor(
    private readonly listRunning: ListRunning,
    private readonly clock: Clock = processClock,
    /** The rate requests are paced to now (the pacer's), for the gap between lists. */
    private readonly pacedRate: () => number | undefined = () => undefined,
  ) {}

  /**
   * The task as the scope's newest list shows it while it runs, and when that list was asked
   * for (`at`, epoch ms: what it shows is as of then); undefined when the list does not show it
   * (it ended: read it by id) or cannot be had. `since`: a list asked for before then is not
   * asked about it (when the wait began; after a look, just after the list that look used).
   */
  async running(scope: TaskScope, id: string, since: number, signal?: AbortSignal): Promise<Listed | undefined> {
    if (this.#unsupported) return undefined;
    const key = `${scope.projectId}/${scope.regionId}`;
    const now = this.clock.now();
    let snapshot = this.#snapshots.get(key);
    if (!snapshot || snapshot.sentAt < since || now - snapshot.sentAt > LIST_FRESH_MS) {
      const sentAt = snapshot ? Math.max(now, snapshot.sentAt + listGapMs(this.pacedRate())) : now;
      snapshot = sentAt > now ? this.#later(key, scope, sentAt - now, snapshot!) : { sentAt, running: this.#read(scope), waiting: 0 };
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
      return task && { task, at: taken.sentAt };
    } finally {
      signal?.removeEventListener("abort", leave);
    }
  }

  /** A list to send `inMs` from now, after `last` (sent), unless every look waiting for it leaves first. */
  #later(key: string, scope: TaskScope, inMs: number, last: Snapshot): Snapshot {
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
        if (this.#snapshots.get(key) === snapshot) this.#snapshots.set(key, last);
      },
    };
    return snapshot;
  }

  async #read(scope: TaskScope): Promise<Map<string, Task> | undefined> {
    try {
      const records = await this.listRunning(scope);
      const running = new Map<string, Task>();
      for (const r of records) {
        if (fits(TASK, r) && (r.state === "NEW" || r.state === "RUNNING")) running.set(r.id, r);
      }
      return running;
    } catch (err) {
      // No list call here: every task is read by id from now on. Any other failure: this look
      // reads by id, and the next look asks the list again.
      if (err instanceof NotFoundError || (err instanceof ApiError && (err.status === 405 || err.status === 501))) this.#unsupported = true;
      return undefined;
    }
  }
}
