// A Python program's `up` of N Subnets against the TypeScript program's (6c of the full run,
// and `--only languages`), both through the plugin (the same provider process and requests):
// the language runtime's cost. Which goes first alternates from round to round, so both see
// the same load.
import { median } from "../chart";
import { type BenchContext, LONG } from "../context";
import type { Languages } from "../report";
import { timed } from "../stack-runs";

export async function languageRows(ctx: BenchContext, roundCount: number): Promise<Languages> {
  const { N } = ctx.params;
  const languages: Languages = { count: N, upMs: { typescript: [], python: [] } };
  const of = { typescript: await ctx.stack("plugin", ctx.cimsConfig(N)), python: await ctx.stack("python", ctx.cimsConfig(N)) };
  for (let round = 0; round < roundCount; round++) {
    for (const lang of round % 2 === 0 ? (["typescript", "python"] as const) : (["python", "typescript"] as const)) {
      const ms = await timed(() => of[lang].up([], LONG));
      languages.upMs[lang].push(ms);
      ctx.log(`round ${round + 1} ${lang}: up of ${N} ${ms.toFixed(0)} ms`);
      await ctx.clear(of[lang]);
    }
  }
  ctx.log(
    `python / typescript up of ${N}: ${median(languages.upMs.python).toFixed(0)} / ${median(languages.upMs.typescript).toFixed(0)} ms`,
  );
  return languages;
}
