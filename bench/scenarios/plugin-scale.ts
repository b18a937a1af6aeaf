// The plugin face at scale (6b of the full run, and `--only plugin-scale`): preview, up and
// refresh of N Subnets through pulumi-resource-cims (one provider process for the whole stack)
// against N floor resources, bare and holding a Subnet's recorded inputs and outputs (the same
// data for the engine to move: the targets are judged against that floor); which goes first
// rotates from step to step.
import type { TestStack } from "../../tests/support/harness";
import { median } from "../chart";
import { type BenchContext, LONG } from "../context";
import type { PluginScaleRow, ScaleFace } from "../report";
import { subnetState, timed } from "../stack-runs";

type Recorded = Awaited<ReturnType<typeof subnetState>>;

export async function pluginScaleRows(ctx: BenchContext, roundCount: number): Promise<PluginScaleRow[]> {
  const rows: PluginScaleRow[] = [];
  // One Subnet's state on this face, for the floor to hold.
  const one = await ctx.stack("plugin", ctx.cimsConfig(1));
  await one.up([], LONG);
  const like = await subnetState(one, "cims:index:Subnet");
  await ctx.clear(one);
  for (const count of ctx.params.pluginScaleCounts) rows.push(await pluginScaleRow(ctx, count, like, roundCount));
  return rows;
}

async function pluginScaleRow(ctx: BenchContext, count: number, like: Recorded, roundCount: number): Promise<PluginScaleRow> {
  const floorConfig = ctx.floorConfig(count);
  const of: Record<ScaleFace, TestStack> = {
    plugin: await ctx.stack("plugin", ctx.cimsConfig(count)),
    floor: await ctx.stack("floor", floorConfig),
    floorLike: await ctx.stack("floor", { ...floorConfig, "bench:like": JSON.stringify(like) }),
  };
  const runs = {
    previewMs: { plugin: [] as number[], floor: [] as number[], floorLike: [] as number[] },
    refreshMs: { plugin: [] as number[], floor: [] as number[], floorLike: [] as number[] },
  };
  const zero = () => ({ plugin: 0, floor: 0, floorLike: 0 });
  const row: PluginScaleRow = { count, rounds: roundCount, previewMs: zero(), upMs: zero(), refreshMs: zero() };
  // Preview (of the creates) and refresh change nothing, so each runs `roundCount` times,
  // the first of the three rotating, and the row keeps the median; the up runs once.
  const faces: ScaleFace[] = ["floor", "plugin", "floorLike"];
  const order = (round: number) => [...faces.slice(round % 3), ...faces.slice(0, round % 3)];
  for (let round = 0; round < roundCount; round++) {
    for (const face of order(round)) runs.previewMs[face].push(await timed(() => of[face].preview([], LONG)));
  }
  for (const face of order(1)) row.upMs[face] = await timed(() => of[face].up([], LONG));
  for (let round = 0; round < roundCount; round++) {
    for (const face of order(round)) runs.refreshMs[face].push(await timed(() => of[face].refresh([], LONG)));
  }
  for (const what of ["previewMs", "refreshMs"] as const) {
    row[what] = { plugin: median(runs[what].plugin), floor: median(runs[what].floor), floorLike: median(runs[what].floorLike) };
  }
  const said = (x: PluginScaleRow["upMs"]) => `${x.plugin.toFixed(0)} / ${x.floorLike.toFixed(0)} / ${x.floor.toFixed(0)} ms`;
  ctx.log(
    `plugin face ${count}: preview ${said(row.previewMs)}, up ${said(row.upMs)}, refresh ${said(row.refreshMs)} ` +
      `(plugin / floor with a Subnet's data / bare floor; preview and refresh: medians of ${roundCount})`,
  );
  await ctx.clear(of.plugin);
  await ctx.clear(of.floor);
  await ctx.clear(of.floorLike);
  return row;
}
