// The control API under /__emulator/ (no auth; the server answers it on loopback only):
// reset, seed, inspect, faults, task duration, metrics and the request log.
import { HttpError } from "./errors";
import type { Faults, RequestFault, TaskFaultRule } from "./faults";
import type { Metrics } from "./metrics";
import { Router, type RequestContext } from "./router";
import type { Seed, Store } from "./state";
import type { TaskEngine } from "./tasks";

export interface ControlDeps {
  store: Store;
  engine: TaskEngine;
  faults: Faults;
  metrics: Metrics;
  logs: string[];
}

const object = (ctx: RequestContext): Record<string, unknown> => {
  if (typeof ctx.body !== "object" || ctx.body === null || Array.isArray(ctx.body)) {
    throw new HttpError(400, "ValidationError", "Expected a JSON object.");
  }
  return ctx.body as Record<string, unknown>;
};

export function controlRouter({ store, engine, faults, metrics, logs }: ControlDeps): Router {
  const r = new Router();
  const noContent = { status: 204 };
  r.add("POST", "/__emulator/reset", () => {
    store.reset();
    faults.clear();
    metrics.reset();
    logs.length = 0;
    return noContent;
  });
  r.add("POST", "/__emulator/seed", (ctx) => {
    try {
      store.loadSeed(object(ctx) as Seed);
    } catch (err) {
      throw new HttpError(400, "ValidationError", (err as Error).message);
    }
    return noContent;
  });
  r.add("GET", "/__emulator/state", () => ({ status: 200, body: store.dump() }));
  r.add("GET", "/__emulator/faults", () => ({
    status: 200,
    body: { request_faults: faults.requestFaults, task_faults: faults.taskFaults, rate_limit: faults.rateLimit?.perSecond ?? null },
  }));
  r.add("POST", "/__emulator/faults", (ctx) => {
    faults.addRequestFault(object(ctx) as unknown as RequestFault);
    return noContent;
  });
  r.add("POST", "/__emulator/task-faults", (ctx) => {
    faults.addTaskFault(object(ctx) as unknown as TaskFaultRule);
    return noContent;
  });
  r.add("DELETE", "/__emulator/faults", (ctx) => {
    faults.clear();
    engine.releaseHung(ctx.now);
    return noContent;
  });
  r.add("PUT", "/__emulator/rate-limit", (ctx) => {
    faults.setRateLimit(object(ctx).per_second);
    return noContent;
  });
  r.add("PUT", "/__emulator/task-duration", (ctx) => {
    const ms = object(ctx).ms;
    if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0)
      throw new HttpError(400, "ValidationError", "ms must be an integer >= 0");
    engine.durationMs = ms;
    return noContent;
  });
  r.add("GET", "/__emulator/metrics", () => ({ status: 200, body: { ...metrics.snapshot(), tasks: engine.metrics() } }));
  r.add("GET", "/__emulator/logs", () => ({ status: 200, body: { lines: logs } }));
  return r;
}
