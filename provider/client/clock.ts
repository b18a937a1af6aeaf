// The time every wait of the provider reads and sleeps on: task waits, retry pauses, the
// pacer, the task list's gaps, a create's search for its record, deadlines. One seam for all
// of them, so a test can run the provider on time it drives (tests/support/virtual-clock.ts)
// and check how long it waited, and in how many looks, without waiting that long itself.
import { setTimeout as sleepMs } from "node:timers/promises";

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleepMs(ms, undefined, { signal }),
};

let current: Clock = systemClock;

/** The process's clock: the system's unless a test put its own in place (useClock). */
export const processClock: Clock = {
  now: () => current.now(),
  sleep: (ms, signal) => current.sleep(ms, signal),
};

/** Puts `clock` in place of the process's clock; answers what puts the previous one back. */
export function useClock(clock: Clock): () => void {
  const previous = current;
  current = clock;
  return () => {
    current = previous;
  };
}
