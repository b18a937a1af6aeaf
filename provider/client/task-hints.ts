// What finished tasks taught us about how long tasks of a type take, so that the next
// task of that type is looked at close to when it should end. One `pulumi up` often
// creates many alike resources (50 subnets): the first ones pay the usual polling lag,
// later ones mostly none. Each finished task gives a bracket: still running at `below` ms
// after its wait began, finished by `by` ms. The next task of the type is probed in the
// middle of the bracket, then at its end; what it shows narrows the bracket again (a
// bisection across tasks). Waits of the type already asleep re-plan when the bracket changes:
// one of many alike tasks started together (the engine's first wave) that the ordinary
// schedule would next look at an interval after its end is looked at as soon as another of
// them is seen finished. A wrong guess costs at most two extra GETs, never correctness:
// the ordinary schedule keeps running underneath.

export interface Bracket {
  below: number;
  by: number;
}

/** Told what a read at a bracket's end found: true, the task had ended; undefined, no answer. */
export type EndRead = (ended: boolean | undefined) => void;

export class DurationHints {
  private readonly byType = new Map<string, Bracket>();
  private readonly listeners = new Set<(taskType: string) => void>();
  /**
   * Per type, what reads at its bracket's end found: the task ended (trusted), or still running
   * (missed); neither yet, they are on trial, one at a time (`onTrial`).
   */
  private readonly endVerdict = new Map<string, "trusted" | "missed">();
  private readonly onTrial = new Set<string>();
  /** Per type, how many times its verdict was reset by a later end: a read's verdict is of the end it read at. */
  private readonly resets = new Map<string, number>();

  /**
   * Calls `listener` with a task type whenever what is known of it changes, so that waits
   * already asleep re-plan their next look; returns what stops it.
   */
  onLearn(listener: (taskType: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The bracket for this task type, if a task of it has finished before. */
  get(taskType: string | undefined): Bracket | undefined {
    return taskType === undefined ? undefined : this.byType.get(taskType);
  }

  /**
   * Whether a look at the end of this type's bracket may plan to read the task by id (tasks.ts):
   * not once such a read found a task still running, until a task of the type is seen to take
   * longer than the bracket's end. A bracket too short (tasks of the type run longer now, or
   * vary) so costs one read, not one for every wait.
   */
  endTrusted(taskType: string | undefined): boolean {
    return taskType === undefined || this.endVerdict.get(taskType) !== "missed";
  }

  /**
   * Asks to read a task by id at its type's bracket end, now. Until one such read has found its
   * task ended, only one is under way at a time: many waits of a type reach the end together
   * (alike tasks started together), and if the end is too early, all but one would read in vain
   * before the first found out (how many depends on the service's latency, not on us). Answers
   * what the caller calls with what its read found (true: the task had ended; undefined: no
   * answer), or undefined: read through the list instead.
   */
  claimEnd(taskType: string | undefined): EndRead | undefined {
    if (taskType === undefined) return () => undefined;
    const verdict = this.endVerdict.get(taskType);
    if (verdict === "missed") return undefined;
    const trial = verdict === undefined;
    if (trial) {
      if (this.onTrial.has(taskType)) return undefined;
      this.onTrial.add(taskType);
    }
    const resets = this.resets.get(taskType);
    let told = false;
    return (ended) => {
      if (told) return;
      told = true;
      if (trial) this.onTrial.delete(taskType);
      // What a read found of an end since replaced (a later one learned) says nothing of the new
      // one; nor does a trusted end's read undo a miss another read found meanwhile.
      if (ended === undefined || this.resets.get(taskType) !== resets || this.endVerdict.get(taskType) !== verdict) return;
      this.endVerdict.set(taskType, ended ? "trusted" : "missed");
    };
  }

  /** Forgets every type's durations, as a new provider process knows none (forgetRun, for tests that play many deployments). */
  forget(): void {
    this.byType.clear();
    this.endVerdict.clear();
    this.onTrial.clear();
    this.resets.clear();
  }

  /** Records a finished task; overlapping brackets are intersected, a disjoint one replaces. */
  learn(taskType: string | undefined, seen: Bracket): void {
    if (taskType === undefined || !(seen.below < seen.by)) return;
    const old = this.byType.get(taskType);
    const overlaps = old !== undefined && old.below < seen.by && seen.below < old.by;
    const now = overlaps ? { below: Math.max(old.below, seen.below), by: Math.min(old.by, seen.by) } : seen;
    this.byType.set(taskType, now);
    if (now.below === old?.below && now.by === old?.by) return;
    // A read at the end found a task running: only a later end makes the end worth a read again,
    // on trial as at first.
    if (old === undefined || now.by > old.by) {
      this.endVerdict.delete(taskType);
      this.resets.set(taskType, (this.resets.get(taskType) ?? 0) + 1);
    }
    for (const listener of [...this.listeners]) listener(taskType);
  }
}

/** Learns nothing: every wait runs the ordinary schedule alone. */
class NoHints extends DurationHints {
  override learn(): void {}
}

/**
 * Shared by every wait in the provider process. `CIMS_TASK_HINTS=off` turns them off (the
 * bench's hints-on/hints-off rows, `npm run bench`).
 */
export const processHints: DurationHints = process.env.CIMS_TASK_HINTS === "off" ? new NoHints() : new DurationHints();

/** Less than this apart, a probe is not worth a request. */
export const MIN_PROBE_GAP_MS = 10;
/** A bracket this narrow (absolute, or as a share of its end) is not split further. */
const NARROW_MS = 50;
const NARROW_SHARE = 0.02;

/**
 * How long to wait for the next probe, if one is still ahead: the bracket's middle, then its
 * end; once the bracket is narrow, only its end, so a steady stream of alike tasks costs no
 * GET more than the ordinary schedule. `relookMs`: how long a look that finds the task still
 * running waits for the next one (a second while requests are paced, task-board.ts); a bracket
 * no wider than that is narrow too, as a middle probe that misses would see the task later than
 * a look at the end, and cost a look besides (50 subnets at --parallel 8 under 10 a second:
 * each wave's last tasks found running at the middle, a list more a wave).
 */
export function probeIn(hint: Bracket | undefined, elapsedMs: number, relookMs = 0): number | undefined {
  if (!hint) return undefined;
  const narrow = hint.by - hint.below <= Math.max(NARROW_MS, relookMs, NARROW_SHARE * hint.by);
  for (const at of narrow ? [hint.by] : [(hint.below + hint.by) / 2, hint.by]) {
    if (at - elapsedMs >= MIN_PROBE_GAP_MS) return at - elapsedMs;
  }
  return undefined;
}
