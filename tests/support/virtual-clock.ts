// Time a test drives, for code that takes a Clock (provider/client/clock.ts) and an emulator
// started with its `now`: a sleep costs no real time, yet everything waits in the order and
// for the spans it would on the real clock. Sleepers wake in time order, and time moves on to
// the next one only once the process is quiet: no HTTP request in flight (Node's http reports
// each of the provider's on its diagnostics channel, until the request closes; fetch's undici
// reports each of its own on undici's channels) and nothing else run for
// a few turns of the event loop. So a task of 300 ms ends after 300 ms of this time whatever
// the machine's load, a read in flight is answered before the next poll, and a wait's polls
// can be counted and timed exactly. What still runs on real time is what the kernel times: a
// request timeout (the client's own timer) and an emulator fault that delays an answer.
import diagnostics from "node:diagnostics_channel";
import type * as http from "node:http";
import { type Clock, useClock } from "../../provider/client/clock";

interface Sleeper {
  at: number;
  order: number;
  wake: () => void;
}

/** Event-loop turns with nothing in flight before time moves on: what a finished request's callers run in. */
const QUIET_TURNS = 5;
/** A request in flight longer than this (real ms) no longer holds time still: its end was not reported. */
const STALE_MS = 30_000;

const CHANNELS = ["undici:request:create", "undici:request:trailers", "undici:request:error"] as const;
/** Node's http client: a request from its start until it closes (answered, failed or cancelled). */
const HTTP_START = "http.client.request.start";

/**
 * The latest time any clock of the process reached. A clock starts there at the earliest, as
 * time never goes back: what the process remembers across tests (the pacer's last turn, a
 * list's age) was stamped by the clocks before, which may have run ahead of the real one.
 */
let latest = 0;

export class VirtualClock implements Clock {
  #now: number;
  readonly #start: number;
  readonly #sleepers: Sleeper[] = [];
  readonly #inFlight = new Map<object, number>();
  #order = 0;
  #held = 0;
  #serving = 0;
  #driving = false;
  #closed = false;
  readonly #listeners: Array<[string, (message: unknown) => void]>;

  constructor(start = Math.max(Date.now(), latest)) {
    this.#now = start;
    this.#start = start;
    const requestOf = (message: unknown) => (message as { request: object }).request;
    this.#listeners = [
      [CHANNELS[0], (m) => this.#inFlight.set(requestOf(m), Date.now())],
      [CHANNELS[1], (m) => this.#inFlight.delete(requestOf(m))],
      [CHANNELS[2], (m) => this.#inFlight.delete(requestOf(m))],
      [
        HTTP_START,
        (m) => {
          const request = (m as { request: http.ClientRequest }).request;
          this.#inFlight.set(request, Date.now());
          request.once("close", () => this.#inFlight.delete(request));
        },
      ],
    ];
    for (const [name, listener] of this.#listeners) diagnostics.subscribe(name, listener);
  }

  /** Bound, so it can be handed on alone (an emulator's `now`). */
  readonly now = (): number => this.#now;

  /**
   * For an emulator (its `clock` option): this time, and a delaying fault's pause. While the
   * client still waits for the answer the pause is real and holds this time still, as a request
   * in flight does: the request timeout the fault is there to trip is the client's own timer. Once
   * no request is in flight (the client gave up), the rest of the pause is in this time, so what
   * the service does late comes after the client's next steps as it would, at no real cost.
   */
  readonly forEmulator = {
    now: this.now,
    sleep: async (ms: number): Promise<void> => {
      const began = Date.now();
      this.#held++;
      try {
        while (this.#inFlight.size > 0 && Date.now() - began < ms) await new Promise((resolve) => setTimeout(resolve, 5));
      } finally {
        this.#held--;
      }
      const rest = ms - (Date.now() - began);
      if (rest > 0) await this.sleep(rest);
    },
  };

  /**
   * A test server's pause of `ms` in this time before it answers a request in flight: that
   * request no longer holds time still meanwhile (a slow read takes its time in this time, while
   * the client's other waits go on).
   */
  readonly serving = async (ms: number): Promise<void> => {
    this.#serving++;
    try {
      await this.sleep(ms);
    } finally {
      this.#serving--;
    }
  };

  /** Time passed since the clock was made, in its ms. */
  elapsed(): number {
    return this.#now - this.#start;
  }

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { at: this.#now + Math.max(0, ms), order: this.#order++, wake: resolve };
      const onAbort = () => {
        const at = this.#sleepers.indexOf(sleeper);
        if (at >= 0) this.#sleepers.splice(at, 1);
        reject(abortError(signal!));
      };
      sleeper.wake = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#sleepers.push(sleeper);
      void this.#drive();
    });
  };

  /** Stops listening for requests and wakes no one any more. */
  close(): void {
    this.#closed = true;
    for (const [name, listener] of this.#listeners) diagnostics.unsubscribe(name, listener);
  }

  async #drive(): Promise<void> {
    if (this.#driving) return;
    this.#driving = true;
    try {
      while (this.#sleepers.length > 0 && !this.#closed) {
        await this.#quiet();
        if (this.#sleepers.length === 0 || this.#closed) break;
        this.#sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
        this.#now = Math.max(this.#now, this.#sleepers[0].at);
        latest = Math.max(latest, this.#now);
        const due = this.#sleepers.filter((s) => s.at <= this.#now);
        this.#sleepers.splice(0, due.length);
        for (const s of due) s.wake();
      }
    } finally {
      this.#driving = false;
    }
  }

  /** Returns once nothing has been in flight for QUIET_TURNS turns in a row. */
  async #quiet(): Promise<void> {
    for (let still = 0; still < QUIET_TURNS;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#busy()) {
        still = 0;
        await new Promise((resolve) => setTimeout(resolve, 1));
      } else still++;
    }
  }

  #busy(): boolean {
    const now = Date.now();
    for (const [request, since] of this.#inFlight) if (now - since > STALE_MS) this.#inFlight.delete(request);
    return this.#inFlight.size > this.#serving || this.#held > 0;
  }
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error("The operation was aborted", { cause: signal.reason }), { name: "AbortError", code: "ABORT_ERR" });
}

/** Runs `body` with a VirtualClock as the process's clock (provider/client/clock.ts), then puts the real one back. */
export async function onVirtualTime<T>(body: (clock: VirtualClock) => Promise<T>): Promise<T> {
  const clock = new VirtualClock();
  const restore = useClock(clock);
  try {
    return await body(clock);
  } finally {
    restore();
    clock.close();
  }
}
