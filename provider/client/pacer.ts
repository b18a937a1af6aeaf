// One pacer per provider process: every request of every resource takes its turn here, so a
// stack run at any `--parallel` stays under the service's limit on the key instead of
// failing on it. The limit is not published; the pacer learns it. Until the first 429 it
// lets requests through as they come (no cost when the service is not limiting). A 429 says
// the key's budget is spent: the pacer pauses everyone for the service's `Retry-After` (with
// jitter, so waiting requests do not all return at the same instant) and from then on
// spaces requests at the rate the service was seen to accept, creeping up again while no
// 429 comes, so a limit that rises (or a neighbour stack that finished) is found again.
// `cims:maxRequestsPerSecond` caps the rate from the start: a team running several stacks
// on one key splits its budget between them.
//
// Hand-written rather than a rate-limit library: the ones on npm (bottleneck, p-throttle,
// limiter) take a fixed rate; this one learns it from the service's answers.
import { setTimeout as sleep } from "node:timers/promises";

/** How far back the accepted rate is measured when a 429 comes. */
const WINDOW_MS = 1_000;
/** The learned rate rises by this share after each quiet period... */
const INCREASE = 0.05;
/** ...of this long with no 429. */
const QUIET_MS = 1_000;
/** Never slower than this: a limit of under one request a second is not a rate limit but an outage. */
const MIN_RATE = 1;

export interface PacerOptions {
  /** Requests per second at most (config); undefined: only what the service teaches. */
  cap?: number;
  now?: () => number;
  random?: () => number;
}

export interface PacerState {
  /** The rate the pacer keeps to now (requests per second), or undefined while unlimited. */
  rate: number | undefined;
  /** How many 429 answers it has been told of. */
  limited: number;
}

export class Pacer {
  #cap: number | undefined;
  readonly #now: () => number;
  readonly #random: () => number;
  /** The rate learned from 429s; undefined until the first. */
  #learned: number | undefined;
  /** The earliest time the next request may start. */
  #next = 0;
  /** No request starts before this (the service's Retry-After). */
  #pausedUntil = 0;
  /** When requests were answered without a 429, for the accepted rate. */
  #accepted: number[] = [];
  #lastChange = 0;
  #limited = 0;

  constructor(options: PacerOptions = {}) {
    this.#cap = options.cap;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
  }

  /** A new cap (the configuration was read again); undefined: none. */
  set cap(cap: number | undefined) {
    this.#cap = cap;
  }

  get state(): PacerState {
    return { rate: this.#rate(), limited: this.#limited };
  }

  /** Waits for this request's turn (at once while nothing limits); a cancel ends the wait. */
  async turn(signal?: AbortSignal): Promise<void> {
    const now = this.#now();
    let at = Math.max(now, this.#pausedUntil);
    const rate = this.#rate();
    if (rate !== undefined) {
      at = Math.max(at, this.#next);
      this.#next = at + 1000 / rate;
    }
    if (at > now) await sleep(at - now, undefined, { signal });
  }

  /** An answer other than 429: the service accepted a request (and the rate may creep up). */
  accepted(): void {
    const now = this.#now();
    this.#accepted.push(now);
    if (this.#accepted.length > 4096) this.#accepted.splice(0, 2048);
    if (this.#learned !== undefined && now - this.#lastChange >= QUIET_MS) {
      this.#learned *= 1 + INCREASE;
      this.#lastChange = now;
    }
  }

  /**
   * A 429: the key's budget is spent. Everyone pauses for `retryAfterMs` (plus up to a fifth
   * more, at random, per pause), and the rate drops to what the service accepted lately.
   */
  limited(retryAfterMs: number | undefined): void {
    const now = this.#now();
    this.#limited++;
    const recent = this.#accepted.filter((t) => t > now - WINDOW_MS).length;
    const seen = (recent * 1000) / WINDOW_MS;
    // Within one quiet period, one 429 lowers the rate once: a burst of them is one signal.
    if (this.#learned === undefined || now - this.#lastChange >= QUIET_MS / 4) {
      const lower = this.#learned === undefined ? seen : Math.min(this.#learned * 0.9, seen || this.#learned * 0.5);
      this.#learned = Math.max(MIN_RATE, lower);
      this.#lastChange = now;
    }
    if (retryAfterMs !== undefined && retryAfterMs > 0) {
      const until = now + retryAfterMs * (1 + 0.2 * this.#random());
      this.#pausedUntil = Math.max(this.#pausedUntil, until);
    }
  }

  #rate(): number | undefined {
    if (this.#learned === undefined) return this.#cap;
    return this.#cap === undefined ? this.#learned : Math.min(this.#cap, this.#learned);
  }
}
