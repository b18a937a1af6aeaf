// `npm run bench`: what the provider costs, measured against the engine's own floor, in one
// run on this machine. Writes bench/results.json, bench/hints.json, bench/probe-cost.json,
// bench/task-lag.svg and bench/results.md (an --only run: its own JSON file, and results.md).
// Flags (node:util parseArgs): --rounds N (interleaved preview/up/refresh rounds, default 3),
// --task-ms N (task duration for the stack runs, default 2000), --quick (no 1,000-resource
// rows, 2 rounds, 10 resources for the overhead rows, lag 0.3 s and 2 s only), --smoke (every
// row of the full run once at the smallest sizes, 0.3 s tasks: what `npm test` runs, so the bench
// cannot break unseen; its figures mean nothing), --out DIR (write the JSON files and
// results.md there instead of bench/), --only hints
// (just the duration-hints experiment: up of 50 and 200 subnets, hints on vs off), --only
// faces (just the interleaved preview/up rounds: dynamic face, plugin face, floor), --only
// plugin-scale (just the plugin face's preview, up and refresh at 200 and 1,000; preview and refresh
// medians of at least 5 runs), --only
// languages (just a Python program's up of N subnets against the TypeScript one's, at least 5
// interleaved rounds; with --quick, 10 subnets), --only probe
// (just the credential probe's cost: preview of an unchanged stack with and without it, both
// faces, at least 5 interleaved rounds; with --quick, 10 subnets), --only parallel (up of 50
// and 200 subnets at --parallel 8, 16, 64 and 200 against the floor, at 50 the medians of three
// interleaved runs, then up, refresh and destroy on both faces under the emulator's rate limit;
// with --quick, 50 at 8 and 64; --limited: only the rows under the limit, a quicker look at
// them, to write with --out as the file holds no other row), --only s3-scale (a stack of --size Subnets, default 2000, or
// several sizes in turn, `--size 200,2000`, on an S3-compatible backend with gzip on, at
// --parallel 64 under the emulator's limit of 10 requests a second: up, preview, refresh
// --preview-only, an up that changes 10, each beside the floor holding a Subnet's data, with
// the bytes uploaded to S3; and each provider's peak RSS at 50 and at each size), --only memory
// (just those peaks, on the file backend: an `up` of ours and of the floor at 50, then at each
// --size with ours under the limit, `--size 500`),
// --render-only (run nothing:
// rebuild bench/results.md from the JSON files of earlier runs; `npm run bench:render`).
// Every run writes its figures as JSON and then renders results.md from all the files, so the
// markdown always holds every table and the docs link to it rather than copy numbers.
// Each scenario lives in bench/scenarios/ (full.ts runs them all in turn), what they share in
// bench/context.ts, the JSON shapes and every table in bench/report.ts.
import { writeFile } from "node:fs/promises";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "../tests/support/harness";
import { lagChart } from "./chart";
import { type BenchContext, benchContext, benchParams, log, machine } from "./context";
import { readyOutDir } from "./out-dir";
import {
  facesRunMarkdown,
  hintsMarkdown,
  languagesMarkdown,
  memoryMarkdown,
  parallelMarkdown,
  pluginScaleMarkdown,
  probeMarkdown,
  renderResults,
  type S3ScaleRun,
  s3ScaleMarkdown,
  verdicts,
} from "./report";
import { probeAlone, probeRows } from "./scenarios/credentials-probe";
import { facesRounds, facesRun } from "./scenarios/faces";
import { fullRun } from "./scenarios/full";
import { hintsRows } from "./scenarios/hints-experiment";
import { languageRows } from "./scenarios/languages";
import { parallelRows } from "./scenarios/parallel";
import { pluginScaleRows } from "./scenarios/plugin-scale";
import { memoryRun, s3ScaleRun } from "./scenarios/s3-scale";

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    "task-ms": { type: "string" },
    quick: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
    limited: { type: "boolean", default: false },
    out: { type: "string" },
    only: { type: "string" },
    "render-only": { type: "boolean", default: false },
    size: { type: "string", default: "2000" },
  },
});
const params = benchParams(flags);
// Made ready before any measuring: a folder that is missing is created, one that cannot be written fails now.
const outDir = flags.out ? readyOutDir(flags.out) : path.join(REPO_ROOT, "bench");
const benchFile = (f: string) => path.join(outDir, f);
const writeJson = (f: string, value: unknown) => writeFile(benchFile(f), JSON.stringify(value, null, 2) + "\n");
const render = () => renderResults(outDir, params.rateLimitedCount);

/** An --only run's figures: its JSON file, and its table for stdout. */
type Alone = (ctx: BenchContext) => Promise<{ file: string; json: unknown; markdown: string[] }>;
/** The alone runs take at least 5 rounds of the steps they repeat (one with --smoke). */
const aloneRounds = () => (params.smoke ? 1 : Math.max(5, params.rounds));

/** --size: one count or several, comma-separated, each a positive whole number. */
function sizes(text: string): number[] {
  const counts = text.split(",").map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error(`--size takes whole numbers of subnets, comma-separated (--size 200 or --size 200,2000), not "${text}"`);
  }
  return counts;
}

// Checked before anything runs: a typo fails now, not after the emulator and the stacks are made.
const s3Sizes = sizes(flags.size);

const ONLY = new Map<string, Alone>([
  [
    "s3-scale",
    async (ctx) => {
      const run: S3ScaleRun = { machine: machine(), ...(await s3ScaleRun(ctx, s3Sizes)) };
      return { file: "s3-scale.json", json: run, markdown: s3ScaleMarkdown(run) };
    },
  ],
  [
    "memory",
    async (ctx) => {
      const run = { taskMs: params.taskMs, pairs: await memoryRun(ctx, s3Sizes) };
      return { file: "memory.json", json: { machine: machine(), ...run }, markdown: memoryMarkdown(run) };
    },
  ],
  [
    "languages",
    async (ctx) => {
      const languages = await languageRows(ctx, aloneRounds());
      return { file: "languages.json", json: { machine: machine(), ...languages }, markdown: languagesMarkdown(languages) };
    },
  ],
  [
    "plugin-scale",
    async (ctx) => {
      const rows = await pluginScaleRows(ctx, aloneRounds());
      return { file: "plugin-scale.json", json: { machine: machine(), rows }, markdown: pluginScaleMarkdown(rows) };
    },
  ],
  [
    "hints",
    async (ctx) => {
      const rows = await hintsRows(ctx);
      return { file: "hints.json", json: { machine: machine(), rows, verdicts: verdicts(rows) }, markdown: hintsMarkdown(rows) };
    },
  ],
  [
    "parallel",
    async (ctx) => {
      const rows = await parallelRows(ctx);
      const { taskMs } = params;
      return { file: "parallel.json", json: { machine: machine(), taskMs, rows }, markdown: parallelMarkdown(rows, taskMs) };
    },
  ],
  [
    "probe",
    async (ctx) => {
      const alone = await probeAlone(ctx.emulator.url, ctx.apiKey, 9);
      const rows = await probeRows(ctx);
      return { file: "probe-cost.json", json: { machine: machine(), rows, alone }, markdown: probeMarkdown(rows, alone) };
    },
  ],
  [
    "faces",
    async (ctx) => {
      const run = facesRun(await facesRounds(ctx), params.N);
      return { file: "faces.json", json: run, markdown: facesRunMarkdown(run) };
    },
  ],
]);

/** The full run's files: results.json, hints.json, probe-cost.json, task-lag.svg; results.md to stdout too. */
async function writeFullRun(ctx: BenchContext): Promise<void> {
  const { results, hints, probe, samples } = await fullRun(ctx);
  await writeJson("results.json", results);
  await writeJson("hints.json", { machine: results.machine, rows: hints, verdicts: verdicts(hints) });
  await writeJson("probe-cost.json", { machine: results.machine, rows: probe });
  await writeFile(benchFile("task-lag.svg"), lagChart(samples));
  process.stdout.write(await render());
}

async function main(): Promise<void> {
  const ctx = await benchContext(params);
  try {
    // Any other --only (or none) is the full run.
    const alone = flags.only === undefined ? undefined : ONLY.get(flags.only);
    if (!alone) return await writeFullRun(ctx);
    const { file, json, markdown } = await alone(ctx);
    await writeJson(file, json);
    process.stdout.write(markdown.join("\n") + "\n");
    await render();
  } finally {
    await ctx.dispose();
  }
}

if (flags["render-only"]) {
  render().then(
    () => log("wrote bench/results.md"),
    (err: unknown) => {
      process.stderr.write(`bench --render-only failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
} else {
  main().catch((err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
