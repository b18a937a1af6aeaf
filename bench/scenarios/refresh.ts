// Refresh (7 of the full run): N Subnets across 2 scopes read with coalescing on (ours) and
// off (a GET each, the same code otherwise), and N floor resources whose read() makes no
// request, bare and carrying a Subnet's properties; interleaved rounds, medians. At the
// rate-limited size also under the emulator's rate limit, coalescing on and off.
import type { TestStack } from "../../tests/support/harness";
import { median } from "../chart";
import { type BenchContext, LONG, RATE_LIMIT_PER_SECOND, SUBNET } from "../context";
import type { RateLimitedRow, RefreshCell, RefreshMode, RefreshRow } from "../report";
import { subnetState, timed } from "../stack-runs";

export async function refreshRows(ctx: BenchContext): Promise<{ refresh: RefreshRow[]; rateLimited: RateLimitedRow[] }> {
  const refresh: RefreshRow[] = [];
  let rateLimited: RateLimitedRow[] = [];
  for (const count of ctx.params.scaleCounts) {
    const stackOf = await deployed(ctx, count);
    refresh.push(await refreshRow(ctx, count, stackOf));
    if (count === ctx.params.rateLimitedCount) rateLimited = await underRateLimit(ctx, stackOf.cims, count);
    await ctx.clear(stackOf.cims);
    await ctx.clear(stackOf.floor);
    await ctx.clear(stackOf.floorLike);
  }
  return { refresh, rateLimited };
}

/** The stacks each mode refreshes, deployed with instant tasks (deploying is not measured here). */
async function deployed(ctx: BenchContext, count: number): Promise<Record<RefreshMode, TestStack>> {
  ctx.emulator.engine.durationMs = 0;
  const s = await ctx.stack("cims", { ...ctx.cimsConfig(count), "bench:scopes": "2" });
  await s.up([], LONG);
  const f = await ctx.stack("floor", ctx.floorConfig(count, 0));
  await f.up([], LONG);
  // The same floor with each resource carrying a Subnet's properties (the engine's and
  // the gRPC layer's work grows with the properties a resource holds).
  const like = await subnetState(s, SUBNET);
  const fp = await ctx.stack("floor", { ...ctx.floorConfig(count, 0), "bench:like": JSON.stringify(like) });
  await fp.up([], LONG);
  ctx.emulator.engine.durationMs = ctx.params.taskMs;
  return { cims: s, off: s, floor: f, floorLike: fp };
}

/** Interleaved rounds of each mode's refresh (the first rotating); medians, and the most lists of a scope. */
async function refreshRow(ctx: BenchContext, count: number, stackOf: Record<RefreshMode, TestStack>): Promise<RefreshRow> {
  const runs: Record<RefreshMode, { ms: number[]; requests: number[]; listsPerScope: number[] }> = {
    cims: { ms: [], requests: [], listsPerScope: [] },
    off: { ms: [], requests: [], listsPerScope: [] },
    floor: { ms: [], requests: [], listsPerScope: [] },
    floorLike: { ms: [], requests: [], listsPerScope: [] },
  };
  const modes: RefreshMode[] = ["cims", "off", "floor", "floorLike"];
  for (let round = 0; round < ctx.params.rounds; round++) {
    for (const mode of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
      const measured = await refreshOnce(ctx, stackOf[mode], mode);
      runs[mode].ms.push(measured.ms);
      runs[mode].requests.push(measured.requests);
      runs[mode].listsPerScope.push(measured.listsPerScope);
    }
  }
  const row = (mode: RefreshMode) => ({
    ms: median(runs[mode].ms),
    requests: median(runs[mode].requests),
    listsPerScope: Math.max(...runs[mode].listsPerScope),
  });
  ctx.log(
    `refresh ${count}: ours ${row("cims").ms.toFixed(0)} ms / ${row("cims").requests} requests, ` +
      `off ${row("off").ms.toFixed(0)} ms / ${row("off").requests}, floor ${row("floor").ms.toFixed(0)} ms, ` +
      `floor with properties ${row("floorLike").ms.toFixed(0)} ms`,
  );
  return { count, cims: row("cims"), off: row("off"), floor: row("floor"), floorLike: row("floorLike") };
}

/** One `pulumi refresh`: wall time, requests the emulator answered, the most list requests of one scope. */
async function refreshOnce(ctx: BenchContext, s: TestStack, mode: RefreshMode): Promise<RefreshCell> {
  const { emulator } = ctx;
  // By environment, not stack config: a refresh configures the provider from the inputs the
  // state recorded at the last `up`, so a config change would not reach it.
  if (mode === "cims" || mode === "off") s.env.CIMS_COALESCE_READS = mode === "cims" ? "true" : "false";
  emulator.metrics.reset();
  emulator.logs.length = 0; // it keeps the last 5,000 lines: start empty so none is lost
  const ms = await timed(() => s.refresh([], LONG));
  const perScope = new Map<string, number>();
  for (const line of emulator.logs) {
    const scope = /^GET \/cloud\/v1\/subnets\/(\d+\/\d+)\?/.exec(line)?.[1];
    if (scope) perScope.set(scope, (perScope.get(scope) ?? 0) + 1);
  }
  return { ms, requests: emulator.metrics.snapshot().total_requests, listsPerScope: Math.max(0, ...perScope.values()) };
}

/**
 * Refresh of the deployed stack with the emulator allowing RATE_LIMIT_PER_SECOND requests per
 * second, coalescing on and off (on alone in a smoke run: each mode runs the same lines and makes
 * a row of the same table, and the refresh row above already ran coalescing off).
 */
async function underRateLimit(ctx: BenchContext, s: TestStack, count: number): Promise<RateLimitedRow[]> {
  const { emulator } = ctx;
  const rows: RateLimitedRow[] = [];
  for (const mode of ctx.params.smoke ? (["cims"] as const) : (["cims", "off"] as const)) {
    s.env.CIMS_COALESCE_READS = mode === "cims" ? "true" : "false";
    emulator.faults.setRateLimit(RATE_LIMIT_PER_SECOND); // a fresh, full bucket per run
    await new Promise((r) => setTimeout(r, 1000)); // and the last run's retries are over
    emulator.metrics.reset();
    let result: { code: number | null; stdout: string } = { code: 0, stdout: "" };
    const ms = await timed(async () => (result = await s.refresh([], { ...LONG, allowFailure: true })));
    emulator.faults.setRateLimit(null);
    const m = emulator.metrics.snapshot();
    const refused = Object.entries(m.requests)
      .filter(([k]) => / 429$/.test(k))
      .reduce((n, [, c]) => n + c, 0);
    const failedResources = new Set([...result.stdout.matchAll(/cims:Subnet \(s(\d+)\):\s*\n\s*error/g)].map((x) => x[1])).size;
    rows.push({ mode, ms, ok: result.code === 0, failedResources, requests: m.total_requests, refused });
    ctx.log(`rate-limited refresh ${count} (${mode}): ${ms.toFixed(0)} ms, exit ${result.code}, ${refused} refused with 429`);
  }
  return rows;
}
