// One pacer per provider process: every request of every resource takes its turn here, so a
// stack run at any `--parallel` stays under the service's limit on the key instead of
// failing on it. The limit is not published; the pacer learns it:
// - Until the first 429 requests go as they come (no cost when the service does not limit),
//   but no more of them in flight at once than a window that starts small and grows by one
//   with every answer, as TCP's slow start: a burst of creates at --parallel 64 sent all at
//   once met the limit unknown, and every request sent before the first 429 came back was
//   refused as well. Answers come back within milliseconds, so the window is wide open after
//   a few round trips where nothing limits.
// - The first 429 says the key's budget is spent: everyone waits out its `Retry-After` (plus
//   up to a fifth more, at random, so the waiting requests do not return at one instant), and
//   from then on turns are granted one at a time, in order, at the rate the service was seen
//   to accept in the last second.
// - A later 429 lowers the rate to 15% under the lower of it and what the service accepted in
//   the last second, when the refused request was sent after the last lowering: one sent before
//   says nothing of the new rate (a burst of them is one signal), one sent at the lowered rate
//   lowers it again at once (lowered once a second, a climb that met the limit took a run of
//   429s, one a turn). The request it refused waits its own Retry-After, nobody else does.
// - While no 429 comes the rate climbs back on a cubic of the time since the last decrease,
//   as AWS's adaptive retry mode (and TCP CUBIC) does: flat near the rate of the last 429, so
//   a limit found is not knocked on every few seconds (after the first 429 too, which lowers
//   nothing), then faster and faster, so a stray 429 (a gateway's, a neighbour stack's burst)
//   holds the stack back seconds, not for the rest of the run; never past twice what the
//   service accepted in the last second.
// `cims:maxRequestsPerSecond` caps the rate from the first request: a team running several
// stacks on one key splits its budget between them.
//
// Hand-written rather than a rate-limit library: the ones on npm (bottleneck, p-throttle,
// limiter) keep a fixed rate; this one learns it from the service's answers.
import { processClock } from "./clock";

/** How far back the accepted rate is measured. */
const WINDOW_MS = 1_000;
/** Where a 429's request has no known send time, a burst of 429s within this is one signal: the rate is lowered once. */
const STEP_MS = 1_000;
const DECREASE = 0.85;
/** The cubic's scale, in requests a second per second cubed (AWS's adaptive retry mode uses 0.4). */
const CUBIC = 0.4;
/** Requests in flight at once before the first 429, at first (the window grows by one an answer). */
const FIRST_WINDOW = 4;
/** Never slower than this: a limit of under one request a second is not a rate limit but an outage. */
const MIN_RATE = 1;

export interface PacerOptions {
  /** Requests per second at most (config); undefined: only what the service teaches. */
  cap?: number;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface PacerState {
  /** The rate the pacer keeps to now (requests per second), or undefined while unlimited. */
  rate: number | undefined;
  /** How many 429 answers it has been told of. */
  limited: number;
  /**
   * The rate the service was last found to limit the key at (what it accepted in the second
   * before its last 429), or the cap where lower; undefined while nothing limits. `rate` climbs
   * past it while no 429 comes, to find a limit raised (up to twice what the service took in the
   * last second); it is the budget, a request that is not needed is a turn of it spent.
   */
  limit: number | undefined;
}

interface Waiter {
  resolve: (at: number) => void;
  signal?: AbortSignal;
  ahead: boolean;
}

export class Pacer {
  #cap: number | undefined;
  readonly #now: () => number;
  readonly #random: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The rate learned from 429s (undefined until the first), and the rate the last one came at. */
  #learned: number | undefined;
  #ceiling = Infinity;
  /** When the rate was last lowered, and how many seconds after it the cubic is back at the ceiling. */
  #lastChange = 0;
  #k = 0;
  /** No turn is granted before this (the first 429's Retry-After). */
  #pausedUntil = 0;
  /** When the last turn was granted. */
  #lastTurn = -Infinity;
  readonly #queue: Waiter[] = [];
  #pumping = false;
  /** When requests were answered without a 429, for the accepted rate. */
  #accepted: number[] = [];
  #limited = 0;
  /** Before the first 429: how many requests may be in flight at once, and how many are. */
  #window = FIRST_WINDOW;
  #inFlight = 0;

  constructor(options: PacerOptions = {}) {
    this.#cap = options.cap;
    this.#now = options.now ?? processClock.now;
    this.#random = options.random ?? Math.random;
    this.#sleep = options.sleep ?? processClock.sleep;
  }

  /** A new cap (the configuration was read again); undefined: none. */
  set cap(cap: number | undefined) {
    this.#cap = cap;
  }

  /**
   * Forgets what it learned, as a new provider process starts unlimited (tests that play many
   * deployments in one process, each on a clock of its own, call it between them through
   * forgetRun): times kept from another deployment's clock would pace this one by them.
   */
  forget(): void {
    this.#learned = undefined;
    this.#ceiling = Infinity;
    this.#lastChange = 0;
    this.#k = 0;
    this.#pausedUntil = 0;
    this.#lastTurn = -Infinity;
    this.#accepted = [];
    this.#limited = 0;
    this.#window = FIRST_WINDOW;
    this.#inFlight = 0;
  }

  get state(): PacerState {
    const rate = this.#rate();
    return {
      rate,
      limited: this.#limited,
      limit: rate === undefined || this.#learned === undefined ? rate : Math.min(rate, this.#ceiling),
    };
  }

  /**
   * Waits for this request's turn (at once while nothing limits); a cancel ends the wait.
   * `ahead`: before every request already waiting but those ahead themselves (a list that
   * many waits share, which behind a queue of creates would come after the tasks it watches ended).
   */
  turn(signal?: AbortSignal, ahead = false): Promise<number> {
    if (this.#free()) return Promise.resolve(this.#grant());
    return new Promise<number>((resolve, reject) => {
      const waiter: Waiter = { resolve, signal, ahead };
      signal?.addEventListener(
        "abort",
        () => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(signal.reason);
        },
        { once: true },
      );
      const at = ahead ? this.#queue.findIndex((w) => !w.ahead) : -1;
      this.#queue.splice(at < 0 ? this.#queue.length : at, 0, waiter);
      void this.#pump();
    });
  }

  /** Whether a request may go at once: nothing limits, nothing waits, and the window has room. */
  #free(): boolean {
    return this.#rate() === undefined && this.#now() >= this.#pausedUntil && this.#queue.length === 0 && this.#roomInWindow();
  }

  /** While no rate paces the turns (no 429 yet, no cap), whether one more request may be in flight. */
  #roomInWindow(): boolean {
    return this.#rate() !== undefined || this.#inFlight < this.#window;
  }

  /** A turn granted now: answers its time, for limited() to tell which rate it was sent at. */
  #grant(): number {
    this.#lastTurn = this.#now();
    if (this.#rate() === undefined) this.#inFlight++;
    return this.#lastTurn;
  }

  /**
   * A granted request has its answer (or none: it failed, or was cancelled): its place in the
   * window is free. Called once for every turn, after accepted() or limited() where the service answered.
   */
  done(): void {
    if (this.#inFlight === 0) return;
    this.#inFlight--;
    if (this.#queue.length > 0) void this.#pump();
  }

  /** Grants the queued turns in order, each when the pause, the rate and the window allow. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#queue.length > 0) {
        // No room in the window: the next answer (done()) pumps again.
        if (!this.#roomInWindow()) return;
        const rate = this.#rate();
        const at = Math.max(this.#pausedUntil, rate === undefined ? -Infinity : this.#lastTurn + 1000 / rate);
        const wait = at - this.#now();
        // Sleep, then look again: a 429 meanwhile may have moved the time of the next turn.
        if (wait > 0) {
          await this.#sleep(wait);
          continue;
        }
        const granted = this.#grant();
        this.#queue.shift()?.resolve(granted);
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** An answer other than 429: the service accepted a request (and the rate may rise, or the window widen). */
  accepted(): void {
    const now = this.#now();
    this.#accepted.push(now);
    if (this.#accepted.length > 4096) this.#accepted.splice(0, 2048);
    if (this.#learned === undefined) {
      this.#window++;
      return;
    }
    const grown = CUBIC * ((now - this.#lastChange) / 1000 - this.#k) ** 3 + this.#ceiling;
    if (grown <= this.#learned) return;
    // Never past twice what the service took in the last second: a rate not used proves nothing.
    this.#learned = Math.max(this.#learned, Math.min(grown, 2 * this.#seen(now)));
  }

  /** Requests a second the service accepted in the last WINDOW_MS. */
  #seen(now: number): number {
    let n = 0;
    for (let i = this.#accepted.length - 1; i >= 0 && this.#accepted[i] >= now - WINDOW_MS; i--) n++;
    return (n * 1000) / WINDOW_MS;
  }

  /**
   * A 429: the key's budget is spent (see the file's head for what follows). `sentAt`: the time
   * of the refused request's turn (what turn() answered); unknown, a burst of 429s within
   * STEP_MS is one signal.
   */
  limited(retryAfterMs: number | undefined, sentAt?: number): void {
    const now = this.#now();
    this.#limited++;
    const seen = this.#seen(now);
    if (this.#learned === undefined) {
      this.#learned = Math.max(MIN_RATE, seen);
      this.#ceiling = this.#learned;
      this.#lastChange = now;
      // Flat for as long as after a decrease of the same rate: the limit was just found.
      this.#k = Math.cbrt((this.#learned * (1 - DECREASE)) / CUBIC);
      const pause = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : 1000;
      this.#pausedUntil = Math.max(this.#pausedUntil, now + pause * (1 + 0.2 * this.#random()));
      return;
    }
    if (sentAt === undefined ? now - this.#lastChange >= STEP_MS : sentAt > this.#lastChange) {
      // What the service accepted in the last second is its limit, when we sent that much.
      this.#ceiling = seen > 0 ? Math.min(seen, this.#learned) : this.#learned;
      // Below it, and flat there for a while (the cubic): at the limit itself, the next request over it is refused.
      this.#learned = Math.max(MIN_RATE, this.#ceiling * DECREASE);
      this.#k = Math.cbrt(Math.max(0, this.#ceiling - this.#learned) / CUBIC);
      this.#lastChange = now;
    }
  }

  #rate(): number | undefined {
    if (this.#learned === undefined) return this.#cap;
    return this.#cap === undefined ? this.#learned : Math.min(this.#cap, this.#learned);
  }
}
