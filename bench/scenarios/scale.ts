// Scale (6 of the full run): `pulumi up` of N Subnets and of N floor resources (same task
// duration) at each size, one after the other; the provider's peak RSS at each.
import { type BenchContext, LONG } from "../context";
import { mb, type ScaleRow } from "../report";
import { peakProviderRss, timed } from "../stack-runs";

export async function scaleRows(ctx: BenchContext): Promise<ScaleRow[]> {
  const scale: ScaleRow[] = [];
  for (const count of ctx.params.scaleCounts) {
    const s = await ctx.stack("cims", ctx.cimsConfig(count));
    const f = await ctx.stack("floor", ctx.floorConfig(count));
    let upMs = 0;
    let floorUpMs = 0;
    const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up([], LONG))));
    await peakProviderRss(f, async () => (floorUpMs = await timed(() => f.up([], LONG))));
    scale.push({ count, upMs, floorUpMs, peakRssBytes: rss, upMsPerResource: upMs / count });
    ctx.log(`scale ${count}: up ${upMs.toFixed(0)} ms, floor ${floorUpMs.toFixed(0)} ms, provider peak RSS ${mb(rss)} MB`);
    await ctx.clear(s);
    await ctx.clear(f);
  }
  return scale;
}
