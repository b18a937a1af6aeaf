// `--only parallel`: N Subnets at several engine parallelisms (`--parallel P`).
// - Without a rate limit: `pulumi up` of ours (dynamic face) against the floor at the same P,
//   bare and holding a Subnet's recorded inputs and outputs (the same data for the engine to
//   move and checkpoint: the target is judged against that floor, as the plugin face's is).
// - Under the emulator's rate limit: `pulumi up`, `refresh` and `destroy` on both faces, where
//   the time the limit itself imposes (requests / rate) is the yardstick.
// Each row records wall time, when the first and the last request of the command reached the
// service (the rest is the engine's start and finish, which no pacing changes), requests per
// subnet, 429 answers and failures. The floor holding a Subnet's data marks when its resources'
// work began and ended, so the limited rows also say the least wall time they could take at
// that P: the engine's start, plus the limit's time or the task waves (report.ts, leastMs).
import { readFile, rm } from "node:fs/promises";
import * as path from "node:path";
import type { RunningEmulator } from "pulumi-cims/emulator";
import type { TestStack } from "../../tests/support/harness";
import { type BenchContext, LONG, RATE_LIMIT_PER_SECOND, type RequestTimes, SUBNET } from "../context";
import type { ParallelRow } from "../report";
import { subnetState, timed } from "../stack-runs";

/** The experiment at the run's sizes: 50 subnets at 8, 16, 64 and 200 at 8, 16, 64, 200 (50 at 8 and 64 with --quick). */
export async function parallelRows(ctx: BenchContext): Promise<ParallelRow[]> {
  // One Subnet's state on the dynamic face, for the floor to hold.
  const one = await ctx.stack("cims", ctx.cimsConfig(1));
  await one.up([], LONG);
  const like = JSON.stringify(await subnetState(one, SUBNET));
  await ctx.clear(one);
  return parallelExperiment({
    emulator: ctx.emulator,
    seen: ctx.requestTimes,
    runs: ctx.params.quick
      ? [{ count: 50, parallel: [8, 64] }]
      : [
          { count: 50, parallel: [8, 16, 64] },
          { count: 200, parallel: [8, 16, 64, 200] },
        ],
    rateLimit: RATE_LIMIT_PER_SECOND,
    limitedOnly: ctx.params.limitedOnly,
    stack: (mode, count) =>
      mode === "floorLike"
        ? ctx.stack("floor", { ...ctx.floorConfig(count), "bench:like": like })
        : mode === "floor"
          ? ctx.stack("floor", ctx.floorConfig(count))
          : ctx.stack(mode, ctx.cimsConfig(count)),
    clear: ctx.clear,
    log: ctx.log,
  });
}

export async function parallelExperiment(opts: {
  emulator: RunningEmulator;
  /** Set to undefined before each command; the emulator's log hook fills it. */
  seen: RequestTimes;
  runs: Array<{ count: number; parallel: number[] }>;
  rateLimit: number;
  /** Only the rows under the limit: no floor, no row without a limit (their engine's ends are then not known). */
  limitedOnly?: boolean;
  stack: (mode: "cims" | "plugin" | "floor" | "floorLike", count: number) => Promise<TestStack>;
  clear: (stack: TestStack) => Promise<void>;
  log: (line: string) => void;
}): Promise<ParallelRow[]> {
  const rows: ParallelRow[] = [];
  const { emulator, seen } = opts;
  const measure = async (
    s: TestStack,
    what: Omit<ParallelRow, "ms" | "beforeFirstMs" | "afterLastMs" | "requests" | "taskRequests" | "refused" | "failed" | "ok">,
    floors?: { floorMs: number; floorLikeMs: number },
  ) => {
    const args = ["--parallel", String(what.parallel)];
    emulator.faults.setRateLimit(what.rateLimit); // a fresh, full bucket
    emulator.metrics.reset();
    seen.first = seen.last = undefined;
    let result = { code: 0 as number | null, stdout: "" };
    const started = Date.now();
    const run = { up: () => s.up(args, FAILING), refresh: () => s.refresh(args, FAILING), destroy: () => s.destroy(args, FAILING) }[
      what.op
    ];
    const ms = await timed(async () => (result = await run()));
    emulator.faults.setRateLimit(null);
    const m = emulator.metrics.snapshot();
    const row: ParallelRow = {
      ...what,
      ms,
      ...floors,
      beforeFirstMs: (seen.first ?? started) - started,
      afterLastMs: started + ms - (seen.last ?? started + ms),
      requests: m.total_requests,
      taskRequests: sum(m.requests, /^GET \/cloud\/v1\/tasks(\/:task_id)? /),
      refused: sum(m.requests, / 429$/),
      failed: new Set([...result.stdout.matchAll(/Subnet \(s(\d+)\):\s*\n\s*error/g)].map((x) => x[1])).size,
      ok: result.code === 0,
    };
    opts.log(`${describe(row)}\n  requests: ${breakdown(m.requests)}`);
    return row;
  };
  for (const { count, parallel } of opts.runs) {
    const dynamic = await opts.stack("cims", count);
    const plugin = await opts.stack("plugin", count);
    const floor = await opts.stack("floor", count);
    const floorLike = await opts.stack("floorLike", count);
    const engineOf = new Map<number, Record<"up" | "destroy", EngineEnds>>();
    for (const p of opts.limitedOnly ? [] : parallel) {
      const args = ["--parallel", String(p)];
      const samples: Array<{ ours: ParallelRow; floorMs: number; up: EngineEnds; destroy: EngineEnds }> = [];
      for (let round = 0; round < roundsOf(count); round++) {
        const floorMs = await timed(() => floor.up(args, LONG));
        await opts.clear(floor);
        // The floor holding a Subnet's data, up and destroyed at this P: its own ends are the
        // engine's start and finish with a dynamic provider that sends nothing.
        const up = await engineEnds(floorLike, () => floorLike.up(args, LONG));
        const destroy = await engineEnds(floorLike, () => floorLike.destroy(args, LONG));
        opts.log(
          `floor with a Subnet's data, P=${p}: up ${s(up.ms)} s, destroy ${s(destroy.ms)} s; ${describeEnds(up)} (up), ${describeEnds(destroy)} (destroy)`,
        );
        const ours = await measure(
          dynamic,
          { count, parallel: p, face: "dynamic", op: "up", rateLimit: null },
          { floorMs, floorLikeMs: up.ms },
        );
        await opts.clear(dynamic);
        samples.push({ ours, floorMs, up, destroy });
      }
      const floorMs = median(samples.map((x) => x.floorMs));
      const floorLikeMs = median(samples.map((x) => x.up.ms));
      const ours = samples.map((x) => x.ours).sort((a, b) => a.ms - b.ms)[samples.length >> 1];
      rows.push({ ...ours, floorMs, floorLikeMs, ...(samples.length > 1 ? { rounds: samples.length } : {}) });
      const byStart = (ends: EngineEnds[]) => ends.sort((a, b) => a.beforeFirstMs - b.beforeFirstMs)[ends.length >> 1];
      engineOf.set(p, { up: byStart(samples.map((x) => x.up)), destroy: byStart(samples.map((x) => x.destroy)) });
    }
    for (const p of parallel) {
      for (const [face, s] of [
        ["dynamic", dynamic],
        ["plugin", plugin],
      ] as const) {
        for (const op of ["up", "refresh", "destroy"] as const) {
          const row = await measure(s, { count, parallel: p, face, op, rateLimit: opts.rateLimit });
          const engine = op === "refresh" ? undefined : engineOf.get(p)?.[op];
          rows.push(engine ? { ...row, engineBeforeMs: engine.beforeFirstMs, engineAfterMs: engine.afterLastMs } : row);
        }
      }
    }
  }
  return rows;
}

const FAILING = { ...LONG, allowFailure: true };

/**
 * How many times an unlimited row and its floors run, interleaved (medians kept): three at 50
 * subnets, whose up at P = 64 takes 6 s and moved by half a second between two runs on a shared
 * 2-core machine; once at 200, where that is under 2%.
 */
const roundsOf = (count: number) => (count <= 50 ? 3 : 1);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** A floor command's wall time, and its own start and finish: before the first resource's work began and after the last's ended. */
interface EngineEnds {
  ms: number;
  beforeFirstMs: number;
  afterLastMs: number;
}

/** Runs a floor command with its resources marking their work (bench/program, `BENCH_FLOOR_MARKS`). */
export async function engineEnds(floor: TestStack, run: () => Promise<unknown>): Promise<EngineEnds> {
  const file = path.join(floor.root, "floor-marks");
  await rm(file, { force: true });
  floor.env.BENCH_FLOOR_MARKS = file;
  const started = Date.now();
  let ms: number;
  try {
    ms = await timed(run);
  } finally {
    delete floor.env.BENCH_FLOOR_MARKS;
  }
  const marks = (await readFile(file, "utf8"))
    .trim()
    .split("\n")
    .map((line) => line.split(" ").map(Number));
  const first = Math.min(...marks.map(([began]) => began));
  const last = Math.max(...marks.map(([, ended]) => ended));
  return { ms, beforeFirstMs: first - started, afterLastMs: started + ms - last };
}

const describeEnds = (e: EngineEnds) => `its work from ${s(e.beforeFirstMs)} s to ${s(e.ms - e.afterLastMs)} s`;

export const sum = (requests: Record<string, number>, re: RegExp) =>
  Object.entries(requests)
    .filter(([k]) => re.test(k))
    .reduce((n, [, c]) => n + c, 0);

/** "GET /cloud/v1/subnets/:project_id/:region_id 200: 51, ..." most first, for the log. */
export function breakdown(requests: Record<string, number>): string {
  return Object.entries(requests)
    .sort(([, a], [, b]) => b - a)
    .map(([route, n]) => `${route}: ${n}`)
    .join(", ");
}

const s = (ms: number) => (ms / 1000).toFixed(1);

function describe(r: ParallelRow): string {
  const limit = r.rateLimit === null ? "no limit" : `${r.rateLimit}/s`;
  return (
    `parallel ${r.count} subnets, P=${r.parallel}, ${r.face} ${r.op}, ${limit}: ${s(r.ms)} s` +
    `${r.floorMs !== undefined ? ` (floor ${s(r.floorMs)} s${r.floorLikeMs !== undefined ? `, with a Subnet's data ${s(r.floorLikeMs)} s` : ""})` : ""}, requests from ${s(r.beforeFirstMs)} s to ${s(r.ms - r.afterLastMs)} s, ` +
    `${(r.requests / r.count).toFixed(1)} requests and ${(r.taskRequests / r.count).toFixed(2)} task requests a subnet, ` +
    `${r.refused} x 429, ${r.failed} failed, exit ${r.ok ? 0 : "non-zero"}`
  );
}
