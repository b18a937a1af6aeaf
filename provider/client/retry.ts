// Retry policy, in the style of the service's own SDKs, as two small functions:
// "should we retry this outcome?" and "how long do we wait first?".

/** What one attempt ended with, as far as retrying is concerned. */
export type Outcome =
  /**
   * `lock`: a 409 whose message says a running task holds the record. `service`: the body is
   * the service's own JSON error (`exception_class`), not a gateway's page.
   */
  | { kind: "status"; status: number; lock?: boolean; service?: boolean }
  /** The connection was never made (refused, DNS, connect timeout): the server saw nothing. */
  | { kind: "connect-failed" }
  /** The connection broke after the request may have been sent. */
  | { kind: "connection-lost" }
  /** No answer within the request timeout: the server may be acting on it right now. */
  | { kind: "response-timeout" };

const RETRYABLE_STATUS = new Set([408, 429]);

/**
 * A 409 the service explains as a lock ("... is locked by running task <id>") clears when
 * that task ends. Any other conflict (a subnet still used by pool members, an image in use)
 * lasts until someone acts: it is not retried, so its message is shown at once.
 */
export function isLockConflict(status: number, message: string): boolean {
  return status === 409 && /\block(ed)?\b/i.test(message);
}

/**
 * A POST creates something (a subnet, an image): repeating it after the server may have
 * acted would create a second one, which costs money and is orphaned from the stack. So a
 * POST is retried only when the server cannot have acted: the connection was refused, or
 * the service answered 429, 503 or a 409 "locked by a running task" (it rejected the
 * request before doing anything). A 503 counts only with the service's own error body: a
 * gateway's 503 page (like its 502 and 504) may come after the service acted.
 * GET, PUT, PATCH and DELETE set or read state and are safe to repeat.
 */
export function shouldRetry(method: string, outcome: Outcome): boolean {
  if (method === "POST") {
    if (outcome.kind === "connect-failed") return true;
    // Refusals that say the service did not act: a rate limit, unavailable, and a 409 that
    // says what it needs is locked by a running task (two images from one volume: the second
    // POST waits for the first image's lock).
    if (outcome.kind !== "status") return false;
    return outcome.status === 429 || (outcome.status === 503 && outcome.service === true) || outcome.lock === true;
  }
  if (outcome.kind !== "status") return true;
  return RETRYABLE_STATUS.has(outcome.status) || outcome.status >= 500 || outcome.lock === true;
}

/**
 * A lock clears when its task ends, and a rate limit when the key's budget refills (the pacer
 * slows every request of the process meanwhile), so both are retried until the operation's
 * deadline, past maxRetries: neither means the request is wrong.
 */
export function retriesUntilDeadline(outcome: Outcome): boolean {
  return outcome.kind === "status" && (outcome.lock === true || outcome.status === 429);
}

export type HeaderLookup = (name: string) => string | undefined;

const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

/**
 * Delay before retry number `retry` (0 for the first retry). The server's word wins when
 * positive: `retry-after-ms`, then `Retry-After` in seconds or as an HTTP date, plus up to
 * 20% jitter. Otherwise
 * 0.5 s x 2^retry, capped at 8 s, less up to 25% jitter so parallel resources spread out.
 */
export function retryDelayMs(
  retry: number,
  header: HeaderLookup = () => undefined,
  now: number = Date.now(),
  random: () => number = Math.random,
): number {
  const fromServer = serverDelayMs(header, now);
  // A zero or past server delay would retry with no pause at all, and 409 retries until the
  // deadline: a busy loop. Like undici's RetryHandler, only a positive value is honoured; up
  // to a fifth more at random, so the requests one 429 sent back do not all return at once.
  if (fromServer !== undefined && fromServer > 0) return Math.round(fromServer * (1 + 0.2 * random()));
  const backoff = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** retry);
  return Math.round(backoff * (1 - 0.25 * random()));
}

/** What the answer's headers ask to wait, in ms (`retry-after-ms`, then `Retry-After`), if anything. */
export function serverDelayMs(header: HeaderLookup, now: number = Date.now()): number | undefined {
  const ms = Number(header("retry-after-ms"));
  if (header("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms);
  const retryAfter = header("retry-after")?.trim();
  if (retryAfter === undefined || retryAfter === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
