// The full run: every scenario in turn on one emulator, at the sizes the flags set, and the
// results.json they make together. The hints and the probe keep files of their own (their
// experiments also run alone): one file per table keeps a single source for each.
import { median } from "../chart";
import { type BenchContext, ENGINE_PARALLELISM, machine } from "../context";
import type { HintsRow, ProbeRow, Results } from "../report";
import { probeRows } from "./credentials-probe";
import { facesRounds } from "./faces";
import { hintsRows } from "./hints-experiment";
import { languageRows } from "./languages";
import { naiveProvider } from "./naive";
import { pluginScaleRows } from "./plugin-scale";
import { refreshRows } from "./refresh";
import { scaleRows } from "./scale";
import { type LagSample, lagRows } from "./task-lag";

export interface FullRun {
  results: Results;
  hints: HintsRow[];
  probe: ProbeRow[];
  /** Every task-lag sample, for bench/task-lag.svg. */
  samples: LagSample[];
}

export async function fullRun(ctx: BenchContext): Promise<FullRun> {
  const faces = await facesRounds(ctx);
  const naive = await naiveProvider(ctx);
  const scale = await scaleRows(ctx);
  const pluginScale = await pluginScaleRows(ctx, ctx.params.rounds);
  const languages = await languageRows(ctx, ctx.params.rounds);
  const { refresh, rateLimited } = await refreshRows(ctx);
  const hints = await hintsRows(ctx);
  const probe = await probeRows(ctx);
  // Task-wait lag, in process: the same tasks watched by our waiter and by fixed polling.
  const { samples, lag } = await lagRows(ctx);
  const { times, sizes, pluginSizes, floorSizes } = faces;
  const { N, rounds, taskMs, lagSamples } = ctx.params;
  const results: Results = {
    machine: machine(),
    params: { resources: N, rounds, taskMs, engineParallelism: ENGINE_PARALLELISM, lagSamplesPerDuration: lagSamples },
    stateSize: {
      resources: sizes.resources,
      providerBytesMax: Math.max(...sizes.providerBytes),
      providerTextsDistinct: new Set(sizes.providerBytes).size,
      stateBytesPerResource: Math.round(sizes.stateBytesPerResource),
      floorProviderBytes: floorSizes.providerBytes[0],
      share: { cims: sizes.share, plugin: pluginSizes.share, floor: floorSizes.share },
      ...naive,
    },
    overhead: {
      previewMs: { cims: times.cims.preview, plugin: times.plugin.preview, floor: times.floor.preview },
      upMs: { cims: times.cims.up, plugin: times.plugin.up, floor: times.floor.up },
      previewRatio: median(times.cims.preview) / median(times.floor.preview),
      upRatio: median(times.cims.up) / median(times.floor.up),
    },
    lag,
    connections: { opened: faces.connections, peakOpen: faces.peakOpen, requests: faces.requests, engineParallelism: ENGINE_PARALLELISM },
    memory: { providerPeakRssBytes: faces.peakRss, floorProviderPeakRssBytes: faces.floorPeakRss, pluginPeakRssBytes: faces.pluginPeakRss },
    scale,
    pluginScale,
    languages,
    refresh,
    rateLimited,
    benchSeconds: Math.round((Date.now() - ctx.started) / 1000),
  };
  return { results, hints, probe, samples };
}
