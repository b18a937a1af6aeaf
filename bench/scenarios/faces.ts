// The faces (1-5 of the full run, and `--only faces`): interleaved rounds of preview then up of
// N Subnets on both faces (dynamic, plugin) and of N floor resources; the first round also
// counts the connections and requests of the dynamic face's up, and every face's peak RSS
// and state sizes.
import type { TestStack } from "../../tests/support/harness";
import { median } from "../chart";
import { type BenchContext, FLOOR, LONG, machine, NATIVE_SUBNET, SUBNET } from "../context";
import type { FacesRun } from "../report";
import { peakProviderRss, type StateSizes, stateSizes, timed } from "../stack-runs";

export type Face = "cims" | "plugin" | "floor";

export interface FacesRounds {
  times: Record<Face, { preview: number[]; up: number[] }>;
  /** The dynamic face's state in the first round, the plugin face's and the floor's. */
  sizes: StateSizes;
  pluginSizes: StateSizes;
  floorSizes: StateSizes;
  /** Connections opened, open at once at the most, and requests, in the dynamic face's first up. */
  connections: number;
  peakOpen: number;
  requests: number;
  /** Provider peak RSS in each face's first up. */
  peakRss: number;
  floorPeakRss: number;
  pluginPeakRss: number;
}

export async function facesRounds(ctx: BenchContext): Promise<FacesRounds> {
  const { N, rounds } = ctx.params;
  const of: Record<Face, TestStack> = {
    cims: await ctx.stack("cims", ctx.cimsConfig(N)),
    plugin: await ctx.stack("plugin", ctx.cimsConfig(N)),
    floor: await ctx.stack("floor", ctx.floorConfig(N)),
  };
  const times: FacesRounds["times"] = { cims: { preview: [], up: [] }, plugin: { preview: [], up: [] }, floor: { preview: [], up: [] } };
  const out = { connections: 0, peakOpen: 0, requests: 0, peakRss: 0, floorPeakRss: 0, pluginPeakRss: 0 };
  let sizes: StateSizes | undefined;
  let pluginSizes: StateSizes | undefined;
  let floorSizes: StateSizes | undefined;
  const faces: Face[] = ["cims", "plugin", "floor"];
  for (let round = 0; round < rounds; round++) {
    for (const which of [...faces.slice(round % 3), ...faces.slice(0, round % 3)]) {
      const s = of[which];
      const rss = await previewThenUp(ctx, s, times[which]);
      ctx.log(
        `round ${round + 1} ${which}: preview ${times[which].preview.at(-1)!.toFixed(0)} ms, up ${times[which].up.at(-1)!.toFixed(0)} ms`,
      );
      if (round === 0 && which === "cims") {
        const m = ctx.emulator.metrics.snapshot();
        Object.assign(out, { connections: m.connections, peakOpen: m.peak_open_connections, requests: m.total_requests, peakRss: rss });
        sizes = await stateSizes(s, SUBNET);
      }
      if (round === 0 && which === "plugin") {
        pluginSizes = await stateSizes(s, NATIVE_SUBNET);
        out.pluginPeakRss = rss;
      }
      if (round === 0 && which === "floor") {
        floorSizes = await stateSizes(s, FLOOR);
        out.floorPeakRss = rss;
      }
      await ctx.clear(s);
    }
  }
  return { times, sizes: sizes!, pluginSizes: pluginSizes!, floorSizes: floorSizes!, ...out };
}

/** One face's turn: its preview and its up timed (metrics reset before the up); the up's provider peak RSS. */
async function previewThenUp(ctx: BenchContext, s: TestStack, times: { preview: number[]; up: number[] }): Promise<number> {
  times.preview.push(await timed(() => s.preview()));
  ctx.emulator.metrics.reset();
  let upMs = 0;
  const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up([], LONG))));
  times.up.push(upMs);
  return rss;
}

/** What the full run's first rows say, from these rounds alone (bench/faces.json). */
export function facesRun(f: FacesRounds, resources: number): FacesRun {
  const t = f.times;
  return {
    machine: machine(),
    previewMs: { cims: t.cims.preview, plugin: t.plugin.preview, floor: t.floor.preview },
    upMs: { cims: t.cims.up, plugin: t.plugin.up, floor: t.floor.up },
    providerBytesMax: Math.max(...f.sizes.providerBytes),
    previewRatio: median(t.cims.preview) / median(t.floor.preview),
    upRatio: median(t.cims.up) / median(t.floor.up),
    pluginUpRatio: median(t.plugin.up) / median(t.floor.up),
    peakRssBytes: { cims: f.peakRss, plugin: f.pluginPeakRss },
    resources,
    share: { cims: f.sizes.share, plugin: f.pluginSizes.share, floor: f.floorSizes.share },
  };
}
