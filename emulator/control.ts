// The control API under /__emulator/ (no auth; the server answers it on loopback only):
// reset, seed, inspect, faults, task duration, metrics and the request log.
import { parseBody, strictFields, wholeNumber } from "./http-errors";
import { type Faults, perSecondSchema } from "./faults";
import type { Metrics } from "./metrics";
import { Router } from "./router";
import type { Store } from "./store/store";
import type { TaskEngine } from "./tasks";

export interface ControlDeps {
  store: Store;
  engine: TaskEngine;
  faults: Faults;
  metrics: Metrics;
  logs: string[];
}

const rateLimitBody = strictFields({ per_second: perSecondSchema });
const taskDurationBody = strictFields({ ms: wholeNumber("an integer >= 0", 0) });

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
    store.loadSeed(parseBody(store.seedSchema, ctx.body));
    return noContent;
  });
  r.add("GET", "/__emulator/state", () => ({ status: 200, body: store.dump() }));
  r.add("GET", "/__emulator/faults", () => ({
    status: 200,
    body: { request_faults: faults.requestFaults, task_faults: faults.taskFaults, rate_limit: faults.rateLimit?.perSecond ?? null },
  }));
  r.add("POST", "/__emulator/faults", (ctx) => {
    faults.addRequestFault(ctx.body);
    return noContent;
  });
  r.add("POST", "/__emulator/task-faults", (ctx) => {
    faults.addTaskFault(ctx.body);
    return noContent;
  });
  r.add("DELETE", "/__emulator/faults", (ctx) => {
    faults.clear();
    engine.releaseHung(ctx.now);
    return noContent;
  });
  r.add("PUT", "/__emulator/rate-limit", (ctx) => {
    faults.setRateLimit(parseBody(rateLimitBody, ctx.body).per_second);
    return noContent;
  });
  r.add("PUT", "/__emulator/task-duration", (ctx) => {
    engine.durationMs = parseBody(taskDurationBody, ctx.body).ms;
    return noContent;
  });
  r.add("GET", "/__emulator/metrics", () => ({ status: 200, body: { ...metrics.snapshot(), tasks: engine.metrics() } }));
  r.add("GET", "/__emulator/logs", () => ({ status: 200, body: { lines: logs } }));
  return r;
}
