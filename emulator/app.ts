// What one running emulator is made of, built once from its options: the store, the task
// engine, faults, metrics and log, and the two routers (the API and the control API). The
// request pipeline (./pipeline/) reads it; the server (./server.ts) only listens and closes.
import { controlRouter } from "./control";
import { Faults } from "./faults";
import { Metrics } from "./metrics";
import { Router, type Services } from "./router";
import * as RESOURCES from "./generated/collections";
import { Collections } from "./store/collections";
import { registerTaskRoutes } from "./routes/tasks";
import { READ_ONLY_SERVED } from "./routes/read-only";
import { readSeedFile, type Seed } from "./store/files";
import { Store } from "./store/store";
import { TaskEngine } from "./tasks";
import { assertEachRouteOnce, serve } from "./serve";
import { taskTypesOf } from "../api/contract";
import { LIST_PAGE_MAX } from "../api/paths";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The key the emulator accepts: `Authorization: apikey <apiKey>`. */
  apiKey: string;
  /**
   * More keys it accepts, as an account holds several API tokens: a key rotation issues the
   * new one while the old one still works.
   */
  moreApiKeys?: string[];
  /** A seed object or the path of a seed JSON file. */
  seed?: Seed | string;
  /** Persist every change here (atomically) and continue from it on restart. */
  stateFile?: string;
  /** How long tasks take, NEW to FINISHED. Default 1000 ms. */
  taskDurationMs?: number;
  /** Receives one line per request (never the key). */
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /**
   * The most records a list call answers per page, whatever `limit` asks (default 1000, the
   * public reference's maximum). A service may cap pages lower: clients must page by `count`.
   */
  pageSizeMax?: number;
  /**
   * Append one JSON line per API request to this file: method, path, route, status,
   * user-agent and the body as sent. (Our tests check every body the provider sends against
   * the vendor SDK's request types from it.)
   */
  requestLog?: string;
  /**
   * The time tasks run on, the rate limit refills by and a delaying fault waits on (the real
   * clock by default): a test that drives the provider's clock drives this one with it, so a
   * task of seconds ends when the test's time says, not the machine's.
   */
  clock?: EmulatorClock;
}

/** Epoch ms, and a pause of `ms` on the same time. */
export interface EmulatorClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: EmulatorClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Everything the pipeline's stages read, with the options' defaults filled in. */
export interface App {
  store: Store;
  engine: TaskEngine;
  faults: Faults;
  metrics: Metrics;
  /** The last MAX_LOG_LINES lines, for the control API (the caller's `log` gets every one). */
  logs: string[];
  api: Router;
  control: Router;
  /** The keys it accepts now: a test issues and revokes keys by changing the set. */
  apiKeys: Set<string>;
  maxBodyBytes: number;
  pageSizeMax: number;
  requestLog?: string;
  clock: EmulatorClock;
  log(line: string): void;
}

const MAX_LOG_LINES = 5000;

export function createApp(options: EmulatorOptions): App {
  if (!options.apiKey) throw new Error("startEmulator: apiKey is required");
  const collections = new Collections(Object.values(RESOURCES));
  const seed = typeof options.seed === "string" ? readSeedFile(options.seed, collections) : (options.seed ?? {});
  const store = new Store(collections, seed, options.stateFile);
  const taskTypes = new Set(Object.values(RESOURCES).flatMap((r) => taskTypesOf(r.contract)));
  const engine = new TaskEngine(store, options.taskDurationMs ?? 1000, taskTypes);
  const faults = new Faults();
  const metrics = new Metrics();
  const logs: string[] = [];
  return {
    store,
    engine,
    faults,
    metrics,
    logs,
    api: apiRouter({ store, engine, faults }),
    control: controlRouter({ store, engine, faults, metrics, logs }),
    apiKeys: new Set([options.apiKey, ...(options.moreApiKeys ?? [])]),
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    pageSizeMax: options.pageSizeMax ?? LIST_PAGE_MAX,
    requestLog: options.requestLog,
    clock: options.clock ?? REAL_CLOCK,
    log: (line) => {
      logs.push(line);
      // A long-running emulator keeps a bounded tail; the caller's sink sees everything.
      if (logs.length > MAX_LOG_LINES) logs.splice(0, logs.length - MAX_LOG_LINES);
      options.log?.(line);
    },
  };
}

/**
 * Each resource's operations (./collections, one line per resource) and each read-only record's
 * (./routes/read-only.ts), as their contracts name them, then the tasks'.
 */
function apiRouter(services: Services): Router {
  const api = new Router();
  for (const resource of [...Object.values(RESOURCES), ...Object.values(READ_ONLY_SERVED)]) serve(api, services, resource);
  registerTaskRoutes(api, services);
  assertEachRouteOnce(api);
  return api;
}
