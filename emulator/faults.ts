// Fault injection, set through the control API. Request faults make the next N requests
// matching a method and path answer a status (with optional Retry-After; instead of acting,
// or after acting, as a gateway that lost the service's answer does; with the service's JSON
// error or a gateway's HTML page), drop the connection (before or after acting on the
// request), or answer late. Task faults make the
// next task started by a matching request end in ERROR, or never finish.
import { z } from "zod";
import { must, parseBody, strictFields, wholeNumber } from "./http-errors";
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
  /** Seconds, or an HTTP date. */
  retryAfter?: string | number;
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

const ACTIONS = ["status", "status-after", "close", "close-after", "delay"] as const;

// The rules of a fault's fields. A count of 0 used to fire once, a string delay to throw
// later, and `hang: "no"` to hang: each is refused when the fault is set, naming the field.
const method = z.string(must("an HTTP method, or * for any"));
const pattern = z.string(must("a path: exact, `*` for one segment, a trailing `**` for the rest"));
const count = wholeNumber("a whole number >= 1", 1).nullish();
const flag = z.boolean(must("true or false")).optional();
const SHARE = "a number from 0 to 1";
const status = wholeNumber("an HTTP status (100-599)", 100, 599);

const requestFaultSchema: z.ZodType<RequestFault> = strictFields({
  method,
  path: pattern,
  count,
  probability: z.number(must(SHARE)).min(0, must(SHARE)).max(1, must(SHARE)).optional(),
  action: z.enum(ACTIONS, must(`one of ${ACTIONS.join(", ")}`)),
  status: status.optional(),
  proxy: flag,
  retryAfter: z.union([z.string(), z.number()], must("a number of seconds or an HTTP date")).optional(),
  body: z.record(z.string(), z.unknown(), must("a JSON object (the service's error body)")).optional(),
  delayMs: wholeNumber("a whole number >= 0", 0).optional(),
}).check((ctx) => {
  if (ctx.value.action?.startsWith("status") && ctx.value.status === undefined)
    ctx.issues.push({
      code: "custom",
      path: ["status"],
      input: undefined,
      message: `is required by action "${ctx.value.action}": an HTTP status (100-599)`,
    });
});

const taskFaultSchema: z.ZodType<TaskFaultRule> = strictFields({
  method,
  path: pattern,
  count,
  message: z.string(must("a string (the ERROR's text)")).optional(),
  hang: flag,
  keepCreated: flag,
  alongside: flag,
}).check((ctx) => {
  const { message, hang } = ctx.value;
  if (message === undefined && !hang)
    ctx.issues.push({
      code: "custom",
      path: ["message"],
      input: undefined,
      message: "is required (the ERROR's text), unless hang is true",
    });
  for (const name of ["keepCreated", "alongside"] as const) {
    if (ctx.value[name] !== undefined && message === undefined)
      ctx.issues.push({ code: "custom", path: [name], input: ctx.value[name], message: "needs a message (the ERROR's text)" });
  }
});

/** A rate limit: requests per second per key, or null for none. */
export const perSecondSchema = z.union(
  [wholeNumber("a whole number >= 1", 1), z.null()],
  must("a whole number >= 1, or null to lift the limit"),
);

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

  /** A request fault as the control API gets it: checked field by field (400 naming the field). */
  addRequestFault(rule: unknown): void {
    this.requestFaults.push(parseBody(requestFaultSchema, rule));
  }

  /** A task fault as the control API gets it: checked field by field (400 naming the field). */
  addTaskFault(rule: unknown): void {
    this.taskFaults.push(parseBody(taskFaultSchema, rule));
  }

  /** Limits every key to `perSecond` requests per second; null lifts the limit. */
  setRateLimit(perSecond: number | null): void {
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
