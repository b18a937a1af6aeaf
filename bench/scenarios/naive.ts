// The naive provider, for contrast: the size of its serialized __provider (the engine's
// serializer, in a program), and whether it deploys at all.
import type { BenchContext } from "../context";

export async function naiveProvider(ctx: BenchContext): Promise<{ naiveProviderBytes: number; naiveOutcome: string }> {
  const naiveSize = await ctx.stack("naive-size", { "bench:count": "0" });
  await naiveSize.up();
  const naiveProviderBytes = Number((await naiveSize.outputs()).naiveProviderBytes);
  const naive = await ctx.stack("naive", { "bench:count": "1", "bench:url": `${ctx.emulator.url}/__emulator/metrics` });
  const naiveUp = await naive.up([], { allowFailure: true });
  const naiveOutcome = naiveUp.code === 0 ? "deploys" : `fails: ${/error: (.*)/.exec(naiveUp.stdout)?.[1] ?? "see its output"}`;
  ctx.log(`naive provider: ${naiveProviderBytes} bytes of __provider; ${naiveOutcome}`);
  return { naiveProviderBytes, naiveOutcome };
}
