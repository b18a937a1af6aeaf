// Fault injection, set through the control API. Request faults make the next N requests
// matching a method and path answer a status (with optional Retry-After; instead of acting,
// or after acting, as a gateway that lost the service's answer does; with the service's JSON
// error or a gateway's HTML page), drop the connection (before or after acting on the
// request), or answer late. Task faults make the
// next task started by a matching request end in ERROR, or never finish.
import { HttpError } from "./errors";
import type { TaskFault } from "./tasks";

export interface RequestFault {
  method: string;
  /** Exact path, or a pattern: `*` matches one segment, a trailing `**` the rest. */
  path: string;
  /** How many matching requests it applies to; omitted or null = until cleared. */
  count?: number | null;
  /** Applies to a matching request with this probability (0..1]; default 1. */
  probability?: number;
  action: "status" | "status-after" | "close" | "close-after" | "delay";
  /** `status`: answer it; `status-after`: act on the request, then answer it instead of the reply. */
  status?: number;
  /** The answer is a gateway's (an HTML page), not the service's JSON error. */
  proxy?: boolean;
  retryAfter?: string;
  body?: Record<string, unknown>;
  /** `delay`: how late the request is acted on; `status`: how late the status is answered. */
  delayMs?: number;
}

export interface TaskFaultRule extends TaskFault {
  method: string;
  path: string;
  count?: number | null;
}

export function pathMatches(pattern: string, path: string): boolean {
  const p = pattern.split("/");
  const s = path.split("/");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "**" && i === p.length - 1) return true;
    if (i >= s.length || (p[i] !== "*" && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}

function matches(rule: { method: string; path: string }, method: string, path: string): boolean {
  return (rule.method === "*" || rule.method.toUpperCase() === method) && pathMatches(rule.path, path);
}

/** Takes one use of the first matching rule, dropping rules that are used up. */
function take<T extends { method: string; path: string; count?: number | null; probability?: number }>(
  rules: T[],
  method: string,
  path: string,
  random: () => number,
): T | undefined {
  const index = rules.findIndex((r) => matches(r, method, path));
  if (index < 0) return undefined;
  const rule = rules[index];
  if (rule.probability !== undefined && random() >= rule.probability) return undefined;
  if (typeof rule.count === "number") {
    rule.count--;
    if (rule.count <= 0) rules.splice(index, 1);
  }
  return rule;
}

const NUMERIC_RULES: Record<string, (n: number) => boolean> = {
  count: (n) => Number.isInteger(n) && n >= 1,
  probability: (n) => n >= 0 && n <= 1,
  delayMs: (n) => Number.isInteger(n) && n >= 0,
};

/** A fault's optional numbers: a count of 0 used to fire once, a string delay to throw later. */
function checkOptional(rule: object, what: Record<string, string>): void {
  for (const [field, expected] of Object.entries(what)) {
    const v = (rule as Record<string, unknown>)[field];
    if (v !== undefined && v !== null && !(typeof v === "number" && NUMERIC_RULES[field](v))) {
      throw new HttpError(400, "ValidationError", `${field} must be ${expected}, got ${JSON.stringify(v)}`);
    }
  }
}

/**
 * A rate limit per API key, as services put in front of their APIs: a token bucket holding
 * one second's worth of requests, refilled continuously. A request over it is answered 429
 * with `Retry-After` (whole seconds until a token is back).
 */
export class RateLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(readonly perSecond: number) {}

  /** 0 when this key's request may pass now (and is counted), else the seconds to wait. */
  take(key: string, now: number): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(this.perSecond, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }
}

export class Faults {
  requestFaults: RequestFault[] = [];
  taskFaults: TaskFaultRule[] = [];
  rateLimit: RateLimit | undefined;

  constructor(private readonly random: () => number = Math.random) {}

  addRequestFault(rule: RequestFault): void {
    const actions = ["status", "status-after", "close", "close-after", "delay"];
    if (typeof rule.method !== "string" || typeof rule.path !== "string" || !actions.includes(rule.action)) {
      throw new HttpError(400, "ValidationError", `a request fault needs method, path and action (one of ${actions.join(", ")})`);
    }
    if (rule.action.startsWith("status") && !(Number.isInteger(rule.status) && rule.status! >= 100 && rule.status! <= 599)) {
      throw new HttpError(400, "ValidationError", "a status fault needs an HTTP status (100-599)");
    }
    checkOptional(rule, { count: "a whole number >= 1", probability: "a number from 0 to 1", delayMs: "a whole number >= 0" });
    if (rule.proxy !== undefined && typeof rule.proxy !== "boolean") {
      throw new HttpError(400, "ValidationError", "proxy must be true or false");
    }
    if (rule.retryAfter !== undefined && !["string", "number"].includes(typeof rule.retryAfter)) {
      throw new HttpError(400, "ValidationError", "retryAfter must be a number of seconds or an HTTP date");
    }
    this.requestFaults.push({ ...rule });
  }

  addTaskFault(rule: TaskFaultRule): void {
    if (typeof rule.method !== "string" || typeof rule.path !== "string" || (!rule.hang && typeof rule.message !== "string")) {
      throw new HttpError(400, "ValidationError", "a task fault needs method, path, and a message (ERROR) or hang: true");
    }
    checkOptional(rule, { count: "a whole number >= 1" });
    for (const flag of ["keepCreated", "alongside"] as const) {
      if (rule[flag] !== undefined && (typeof rule[flag] !== "boolean" || typeof rule.message !== "string")) {
        throw new HttpError(400, "ValidationError", `${flag} must be true or false, and needs a message (the ERROR's text)`);
      }
    }
    this.taskFaults.push({ ...rule });
  }

  /** Limits every key to `perSecond` requests per second; null lifts the limit. */
  setRateLimit(perSecond: unknown): void {
    if (perSecond !== null && !(typeof perSecond === "number" && Number.isInteger(perSecond) && perSecond >= 1)) {
      throw new HttpError(
        400,
        "ValidationError",
        `per_second must be a whole number >= 1, or null to lift the limit; got ${JSON.stringify(perSecond)}`,
      );
    }
    this.rateLimit = perSecond === null ? undefined : new RateLimit(perSecond);
  }

  clear(): void {
    this.requestFaults = [];
    this.taskFaults = [];
    this.rateLimit = undefined;
  }

  forRequest(method: string, path: string): RequestFault | undefined {
    return take(this.requestFaults, method, path, this.random);
  }

  forTask(method: string, path: string): TaskFault | undefined {
    return take(this.taskFaults, method, path, this.random);
  }
}
