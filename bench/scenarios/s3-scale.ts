// `--only s3-scale`: a stack of N Subnets (`--size`, default 2,000) whose state lives in an
// S3-compatible bucket (scripts/s3-server behind the counting proxy of tests/support/s3.ts),
// gzipped (PULUMI_DIY_BACKEND_GZIP=true, as docs/platform.md tells a team to set), at
// `--parallel` 64 and with the emulator allowing 10 requests a second: `up` (the creates), a
// `preview` that finds no change, the drift check (`refresh --preview-only`) and an `up` that
// renames K of the N in place, each beside the floor holding a Subnet's data doing the same.
// Each row records its wall time, the S3 requests and the bytes uploaded (PUT bodies), the
// requests the emulator accepted and refused, its list requests (the drift check's cost per
// scope) and failed resources. The creating `up`s also give each provider's peak RSS, and a
// pair of 50-resource `up`s before them the same at 50, so memory is compared in one run.
import * as os from "node:os";
import { type BenchContext, LONG, RATE_LIMIT_PER_SECOND, SUBNET } from "../context";
import type { MemoryRun, S3ScaleOp, S3ScaleRow, S3ScaleRun, S3Upload } from "../report";
import { peakProviderRss, subnetState, timed } from "../stack-runs";
import { type S3Server, startS3Server } from "../../tests/support/s3";
import type { RunResult, TestStack } from "../../tests/support/harness";
import { engineEnds, sum } from "./parallel";

/** The resources the last `up` renames: a small change to a large stack. */
export const CHANGED = 10;
export const S3_PARALLEL = 64;
/** The memory pair's size: the faces' rows' N, where the dynamic face's peak was first measured. */
const MEMORY_SMALL = 50;

const FAILING = { ...LONG, allowFailure: true };
/** A list of a scope's subnets (not one subnet's GET), in the emulator's metrics. */
const SUBNET_LIST = /^GET \/cloud\/v1\/subnets\/:project_id\/:region_id \d+$/;

/** One Subnet's state on the dynamic face, for the floor to hold (JSON). */
async function subnetLike(ctx: BenchContext): Promise<string> {
  const one = await ctx.stack("cims", ctx.cimsConfig(1));
  await one.up([], LONG);
  const like = JSON.stringify(await subnetState(one, SUBNET));
  await ctx.clear(one);
  return like;
}

/** The rows at each of `counts` in turn (a fresh bucket each), after the memory pair at 50. */
export async function s3ScaleRun(ctx: BenchContext, counts: number[]): Promise<Omit<S3ScaleRun, "machine">> {
  const like = await subnetLike(ctx);
  const memory = [await memoryPair(ctx, MEMORY_SMALL, like)];
  const rows: S3ScaleRow[] = [];
  for (const [i, count] of counts.entries()) {
    const { sized, rss } = await s3Rows(ctx, count, like, i < counts.length - 1);
    rows.push(...sized);
    memory.push({ count, ...rss });
  }
  return { taskMs: ctx.params.taskMs, parallel: S3_PARALLEL, rateLimit: RATE_LIMIT_PER_SECOND, gzip: true, rows, memory };
}

/**
 * One size's four rows in a bucket of its own, and each provider's peak RSS in the creating
 * `up`. `clear`: another size follows, whose subnets take the same CIDRs, so these go (after the
 * last size the run ends, and with it the emulator and the bucket).
 */
async function s3Rows(ctx: BenchContext, count: number, like: string, clear: boolean) {
  const s3 = await startS3Server();
  try {
    const env = { ...s3.credentials, PULUMI_BACKEND_URL: s3.backendUrl, PULUMI_DIY_BACKEND_GZIP: "true" };
    const ours = await ctx.stack("cims", ctx.cimsConfig(count), env);
    const floor = await ctx.stack("floor", { ...ctx.floorConfig(count), "bench:like": like, "bench:updates": "true" }, env);
    const sized: S3ScaleRow[] = [];
    const rss = { cims: 0, floor: 0 };
    for (const op of ["up", "preview", "drift", "change"] as const) {
      if (op === "change") for (const s of [ours, floor]) await s.setConfig("bench:changed", String(CHANGED));
      const floorSide = await measure(ctx, s3, floor, op, false);
      const ourSide = await measure(ctx, s3, ours, op, true);
      if (op === "up") Object.assign(rss, { cims: ourSide.peakRss, floor: floorSide.peakRss });
      sized.push(rowOf(op, count, ourSide, floorSide));
      ctx.log(describe(sized.at(-1)!));
    }
    if (clear) for (const s of [ours, floor]) await ctx.clear(s);
    return { sized, rss };
  } finally {
    await s3.close();
  }
}

/**
 * `--only memory`: the S3 run's memory figures in minutes where that run takes an hour, on the
 * file backend: the pair at 50 with no limit, then at each of `counts` (`--size 500`) ours
 * under the emulator's limit as the S3 rows' creating `up` runs; each pair with the machine's
 * load averages before it.
 */
export async function memoryRun(ctx: BenchContext, counts: number[]): Promise<MemoryRun["pairs"]> {
  const like = await subnetLike(ctx);
  const pairs: MemoryRun["pairs"] = [];
  for (const [count, limited] of [[MEMORY_SMALL, false] as const, ...counts.map((n) => [n, true] as const)]) {
    const load = os.loadavg();
    pairs.push({ ...(await memoryPair(ctx, count, like, limited)), limited, load });
  }
  return pairs;
}

/**
 * Each provider's peak RSS in an `up` of `count` on the file backend: ours (`limited`: under the
 * emulator's limit), then the floor with a Subnet's data.
 */
async function memoryPair(ctx: BenchContext, count: number, like: string, limited = false): Promise<S3ScaleRun["memory"][number]> {
  const args = ["--parallel", String(S3_PARALLEL)];
  const ours = await ctx.stack("cims", ctx.cimsConfig(count));
  const floor = await ctx.stack("floor", { ...ctx.floorConfig(count), "bench:like": like });
  ctx.emulator.faults.setRateLimit(limited ? RATE_LIMIT_PER_SECOND : null);
  const cims = await peakProviderRss(ours, () => ours.up(args, LONG)).finally(() => ctx.emulator.faults.setRateLimit(null));
  const floorRss = await peakProviderRss(floor, () => floor.up(args, LONG));
  await ctx.clear(ours);
  await ctx.clear(floor);
  const load = os.loadavg().map((l) => l.toFixed(2));
  ctx.log(
    `memory at ${count}${limited ? " (limited)" : ""}: provider peak RSS ${mb(cims)} MB, floor's ${mb(floorRss)} MB (load ${load.join(" ")})`,
  );
  return { count, cims, floor: floorRss };
}

interface Side {
  ms: number;
  /** The floor's `up`s: the time its resources' work took, first began to last ended. */
  workMs?: number;
  peakRss: number;
  s3: S3Upload;
  requests: number;
  refused: number;
  lists: number;
  result: RunResult;
}

const COMMAND: Record<S3ScaleOp, (s: TestStack, args: string[]) => Promise<RunResult>> = {
  up: (s, args) => s.up(args, FAILING),
  change: (s, args) => s.up(args, FAILING),
  preview: (s, args) => s.preview(["--expect-no-changes", ...args], FAILING),
  drift: (s, args) => s.run(["refresh", "--preview-only", "--expect-no-changes", "--stack", s.name, ...args], FAILING),
};

/** One side of a row: the command at P = 64, our side under the emulator's limit, the S3 and API traffic it made. */
async function measure(ctx: BenchContext, s3: S3Server, s: TestStack, op: S3ScaleOp, ours: boolean): Promise<Side> {
  const args = ["--parallel", String(S3_PARALLEL)];
  ctx.emulator.faults.setRateLimit(ours ? RATE_LIMIT_PER_SECOND : null); // a fresh, full bucket
  ctx.emulator.metrics.reset();
  s3.resetTraffic();
  let result: RunResult | undefined;
  let ms = 0;
  let workMs: number | undefined;
  const run = async () => {
    if (ours || (op !== "up" && op !== "change")) {
      ms = await timed(async () => (result = await COMMAND[op](s, args)));
      return;
    }
    const ends = await engineEnds(s, async () => (result = await COMMAND[op](s, args)));
    ms = ends.ms;
    workMs = ends.ms - ends.beforeFirstMs - ends.afterLastMs;
  };
  const peakRss = op === "up" ? await peakProviderRss(s, run) : (await run(), 0);
  ctx.emulator.faults.setRateLimit(null);
  const m = ctx.emulator.metrics.snapshot();
  const t = s3.traffic();
  return {
    ms,
    workMs,
    peakRss,
    s3: { requests: t.requests, puts: t.byMethod.PUT ?? 0, bytesPut: t.bytesPut, largestPut: t.largestPut },
    requests: m.total_requests,
    refused: sum(m.requests, / 429$/),
    lists: sum(m.requests, SUBNET_LIST),
    result: result!,
  };
}

function rowOf(op: S3ScaleOp, count: number, ours: Side, floor: Side): S3ScaleRow {
  const failed = new Set([...ours.result.stdout.matchAll(/Subnet \(s(\d+)\):\s*\n\s*error/g)].map((x) => x[1])).size;
  return {
    op,
    count,
    changes: op === "up" ? count : op === "change" ? CHANGED : 0,
    ms: ours.ms,
    floorMs: floor.ms,
    ...(floor.workMs !== undefined ? { floorWorkMs: floor.workMs } : {}),
    requests: ours.requests,
    refused: ours.refused,
    lists: ours.lists,
    scopes: 1,
    s3: ours.s3,
    floorS3: floor.s3,
    failed,
    ok: ours.result.code === 0 && floor.result.code === 0,
  };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const s = (ms: number) => (ms / 1000).toFixed(1);

function describe(r: S3ScaleRow): string {
  return (
    `s3 ${r.count} subnets, ${r.op}: ${s(r.ms)} s (floor with a Subnet's data ${s(r.floorMs)} s), ` +
    `S3 ${r.s3.requests} requests, ${r.s3.puts} PUT, ${(r.s3.bytesPut / 1e6).toFixed(2)} MB up (floor ${(r.floorS3.bytesPut / 1e6).toFixed(2)} MB), ` +
    `${r.requests} requests (${r.refused} x 429, ${r.lists} lists), ${r.failed} failed, ${r.ok ? "ok" : "a command failed"}`
  );
}
