// What every scenario of the bench shares: the sizes the flags ask for (BenchParams), one
// emulator for the whole run, the stacks deployed against it and the way they are emptied
// between rows, and the log.
import { randomBytes } from "node:crypto";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../provider/client";
import { REPO_ROOT, type StackTemplate, stackTemplate, type TestStack } from "../tests/support/harness";
import type { Machine } from "./report";
import { benchStack, type Mode } from "./stack-runs";

export const SUBNET = "pulumi-nodejs:dynamic/cims:Subnet";
export const FLOOR = "pulumi-nodejs:dynamic/bench:Floor";
export const NATIVE_SUBNET = "cims:index:Subnet";
export const NETWORK_ID = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01"; // examples/emulator-seed.json
export const ENGINE_PARALLELISM = 8; // `pulumi up --help`: --parallel default on this machine
/** The harness stops a command after 5 minutes; an up of 1,000 resources may take longer. */
export const LONG = { timeoutMs: 30 * 60_000 };
export const RATE_LIMIT_PER_SECOND = 10;

export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** The flags that set the sizes of a run (run.ts parses them). */
export interface SizeFlags {
  rounds: string;
  "task-ms"?: string;
  quick: boolean;
  smoke: boolean;
  /** --limited: the parallel experiment's rows under the rate limit only. */
  limited?: boolean;
}

export interface BenchParams {
  smoke: boolean;
  /** --quick, or --smoke (which implies it). */
  quick: boolean;
  /** --limited: the parallel experiment's rows under the rate limit only (no floor, no row without a limit). */
  limitedOnly: boolean;
  rounds: number;
  taskMs: number;
  /** Resources of the overhead rows, the languages and the probe. */
  N: number;
  scaleCounts: number[];
  /** The plugin face's preview, up and refresh against the floor (targets: up <= 1.05x, refresh <= 1.10x). */
  pluginScaleCounts: number[];
  /** The refresh row also measured under the emulator's rate limit. */
  rateLimitedCount: number;
  lagDurations: number[];
  lagSamples: number;
}

export function benchParams(flags: SizeFlags): BenchParams {
  const smoke = flags.smoke;
  const quick = flags.quick || smoke;
  return {
    smoke,
    quick,
    limitedOnly: flags.limited ?? false,
    rounds: smoke ? 1 : quick ? 2 : Number(flags.rounds),
    taskMs: Number(flags["task-ms"] ?? (smoke ? 300 : 2000)),
    N: smoke ? 3 : quick ? 10 : 50,
    scaleCounts: smoke ? [3] : quick ? [10, 50, 200] : [10, 50, 200, 1000],
    pluginScaleCounts: smoke ? [3] : quick ? [200] : [200, 1000],
    rateLimitedCount: smoke ? 3 : 200,
    lagDurations: smoke ? [300] : quick ? [300, 2000] : [300, 2000, 20_000],
    lagSamples: smoke ? 1 : quick ? 3 : 15,
  };
}

/** When requests reached the emulator (each logs a line as it is answered): --only parallel. */
export interface RequestTimes {
  first: number | undefined;
  last: number | undefined;
}

export interface BenchContext {
  params: BenchParams;
  emulator: RunningEmulator;
  apiKey: string;
  /** When the run began (Date.now()): results.json says how long the bench took. */
  started: number;
  requestTimes: RequestTimes;
  log: (line: string) => void;
  /** A stack's config for `count` Subnets against this emulator. */
  cimsConfig: (count: number) => Record<string, string>;
  /** A floor stack's config: `count` no-op resources sleeping `taskMs` (the run's task duration unless told). */
  floorConfig: (count: number, taskMs?: number) => Record<string, string>;
  stack: (mode: Mode, config: Record<string, string>, env?: Record<string, string>) => Promise<TestStack>;
  /** Empties a stack between rows (see `clearer`). */
  clear: (s: TestStack) => Promise<void>;
  /** Disposes every stack made, closes the HTTP pools and the emulator. */
  dispose: () => Promise<void>;
}

export async function benchContext(params: BenchParams): Promise<BenchContext> {
  const started = Date.now();
  // In a test run (the smoke run of `npm test`) a stack of the template's key is made from the
  // run's stack template: its files are written, with no CLI start for its `stack init` or its config.
  const template = await stackTemplate();
  const apiKey = template?.apiKey ?? `bench-${randomBytes(8).toString("hex")}`;
  const requestTimes: RequestTimes = { first: undefined, last: undefined };
  const emulator = await startEmulator({
    apiKey,
    seed: path.join(REPO_ROOT, "examples/emulator-seed.json"),
    taskDurationMs: params.taskMs,
    log: () => {
      const now = Date.now();
      requestTimes.first ??= now;
      requestTimes.last = now;
    },
  });
  const stacks: TestStack[] = [];
  return {
    params,
    emulator,
    apiKey,
    started,
    requestTimes,
    log,
    cimsConfig: (count) => ({
      "bench:count": String(count),
      "bench:networkId": NETWORK_ID,
      "cims:apiUrl": emulator.url,
      "cims:projectId": "1",
      "cims:regionId": "1",
    }),
    floorConfig: (count, taskMs = params.taskMs) => ({ "bench:count": String(count), "bench:taskMs": String(taskMs) }),
    stack: stackMaker(params.smoke, apiKey, stacks, template),
    clear: clearer(emulator),
    dispose: async () => {
      for (const s of stacks) await s.dispose();
      await closeAllPools();
      await emulator.close();
    },
  };
}

/**
 * With --smoke every size is the same and each step leaves its stacks empty, so one
 * stack of a mode, config and environment serves every step that asks for it: a third fewer
 * stacks made in the run `npm test` makes.
 */
function stackMaker(smoke: boolean, apiKey: string, stacks: TestStack[], template?: StackTemplate): BenchContext["stack"] {
  const reused = new Map<string, TestStack>();
  return async (mode, config, env = {}) => {
    const key = JSON.stringify([mode, config, env]);
    const made = smoke ? reused.get(key) : undefined;
    if (made) return made;
    const s = await benchStack(
      mode,
      config,
      mode === "cims" || mode === "plugin" || mode === "python" ? { "cims:apiKey": apiKey } : {},
      // A smoke run's figures mean nothing: its programs skip the type-check a user's get.
      smoke ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true", ...env } : env,
      template,
    );
    stacks.push(s);
    reused.set(key, s);
    return s;
  };
}

/**
 * Between rows a stack's resources go, for nothing a row measures: the bench's subnets are
 * deleted from the emulator's store and the stack's state is emptied as `pulumi state delete
 * --all` does (TestStack.deleteAllState, in the checkpoint of a file backend, with no CLI
 * start). A destroy cost about what the row did: at 2,000 subnets the floor's alone took some
 * 13 minutes of a 45-minute memory run.
 */
function clearer(emulator: RunningEmulator): BenchContext["clear"] {
  return async (s) => {
    for (const r of emulator.store.list("subnets"))
      if (/^bench-\d+(-changed)?$/.test(String(r.name))) emulator.store.delete("subnets", r.id);
    await s.deleteAllState();
  };
}

/** Where and when a run measured: every JSON file carries it, so a table says what it stands for. */
export function machine(): Machine {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    pulumi: "v3.248.0",
    date: new Date().toISOString(),
  };
}
