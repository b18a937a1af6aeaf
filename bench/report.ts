// bench/results.md from the bench's JSON files: their shapes (what each scenario writes), the
// figures derived from them (the hints' verdicts, the wall-time model) and every table. Reads
// nothing but the JSON, so `npm run bench:render` rebuilds the markdown from earlier runs.
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import * as path from "node:path";
import { REPO_ROOT } from "../tests/support/harness";
import { median } from "./chart";
import { RATE_LIMIT_PER_SECOND } from "./context";
import type { StateShare } from "./stack-runs";

// ---- the JSON files' shapes ----

export type Machine = { cpus: number; cpuModel?: string; memoryGiB: number; node: string; pulumi: string; date: string };

/** bench/results.json: the full run. */
export type Results = {
  machine: Machine;
  params: { resources: number; rounds: number; taskMs: number; engineParallelism?: number; lagSamplesPerDuration?: number };
  stateSize: {
    resources?: number;
    providerBytesMax: number;
    providerTextsDistinct: number;
    stateBytesPerResource: number;
    floorProviderBytes: number;
    naiveProviderBytes: number;
    naiveOutcome: string;
    /** Per resource, compact JSON of `stack export` (absent from runs made before it was measured). */
    share?: Record<"cims" | "plugin" | "floor", StateShare>;
  };
  overhead: { previewMs: Record<string, number[]>; upMs: Record<string, number[]>; previewRatio: number; upRatio: number };
  lag: LagRow[];
  connections: { opened: number; peakOpen: number; requests: number; engineParallelism: number };
  /** `pluginPeakRssBytes` (and `upMs.plugin`) are absent from runs made before the plugin face. */
  memory: { providerPeakRssBytes: number; floorProviderPeakRssBytes: number; pluginPeakRssBytes?: number };
  scale: ScaleRow[];
  /** Absent from runs made before the plugin face was measured at scale. */
  pluginScale?: PluginScaleRow[];
  /** Absent from runs made before the Python program was measured. */
  languages?: Languages;
  refresh: RefreshRow[];
  rateLimited: RateLimitedRow[];
  benchSeconds: number;
};
/** bench/faces.json: `--only faces`. `machine` and `peakRssBytes` are absent from runs made before they were recorded. */
export type FacesRun = {
  machine?: Machine;
  previewMs: Record<"cims" | "plugin" | "floor", number[]>;
  upMs: Record<"cims" | "plugin" | "floor", number[]>;
  providerBytesMax: number;
  previewRatio: number;
  upRatio: number;
  pluginUpRatio: number;
  peakRssBytes?: { cims: number; plugin: number };
  resources?: number;
  /** Per resource, compact JSON of `stack export` (absent from runs made before it was measured). */
  share?: Record<"cims" | "plugin" | "floor", StateShare>;
};
/** bench/hints.json (`verdicts`: what `verdicts()` makes of the rows, for a reader of the file). */
export type HintsRun = { machine?: Machine; rows: HintsRow[]; verdicts?: HintsVerdict[] };
/** bench/probe-cost.json (`alone`: `--only probe` only). */
export type ProbeRun = { machine?: Machine; rows: ProbeRow[]; alone?: ProbeAlone };
export type PluginScaleRun = { machine: Machine; rows: PluginScaleRow[] };
export type LanguagesRun = Languages & { machine: Machine };
export type ParallelRun = { machine: Machine; taskMs?: number; rows: ParallelRow[] };

/** The waiters the task-wait lag compares: ours without and with hints, fixed 1 s and 3 s polling. */
export type Waiter = "adaptive" | "hints" | "fixed1s" | "fixed3s";
export type LagRow = { durationMs: number; targetLagMs: number } & Record<Waiter, { medianLagMs: number; medianGets: number }>;
export type ScaleRow = { count: number; upMs: number; floorUpMs: number; peakRssBytes: number; upMsPerResource: number };
/** `floorLike`: the floor holding a Subnet's inputs and outputs. */
export type ScaleFace = "plugin" | "floor" | "floorLike";
/** `rounds`: how many runs of preview and of refresh each median is of (absent: one run, as runs before medians were kept). */
export type PluginScaleRow = { count: number; rounds?: number } & Record<"previewMs" | "upMs" | "refreshMs", Record<ScaleFace, number>>;
export type RefreshMode = "cims" | "off" | "floor" | "floorLike";
export type RefreshCell = { ms: number; requests: number; listsPerScope: number };
export type RefreshRow = { count: number } & Record<RefreshMode, RefreshCell>;
/** `pulumi up` of `count` Subnets on the plugin face, a Python program against a TypeScript one: one time per round. */
export type Languages = { count: number; upMs: { typescript: number[]; python: number[] } };
export type RateLimitedRow = { mode: "cims" | "off"; ms: number; ok: boolean; failedResources: number; requests: number; refused: number };

export type HintsMode = "on" | "off";

export interface HintsRow {
  count: number;
  upMs: Record<HintsMode, number[]>;
  taskGets: Record<HintsMode, number[]>;
}

export interface HintsVerdict {
  count: number;
  medianMs: Record<HintsMode, number>;
  /** max - min of each side's rounds: the noise of this machine for this size. */
  spreadMs: Record<HintsMode, number>;
  /** off - on, of the medians: what the hints save (negative: they cost). */
  savedMs: number;
  medianTaskGets: Record<HintsMode, number>;
  /** The saving beats the larger spread of the two sides. */
  winsBeyondNoise: boolean;
}

export type ProbeMode = "probe" | "skip";
export type ProbeFace = "cims" | "plugin";
export interface ProbeRow {
  face: ProbeFace;
  count: number;
  previewMs: Record<ProbeMode, number[]>;
  probesPerPreview: Record<ProbeMode, number[]>;
}
/** The probe alone, in a fresh process per round: cold (loading the HTTP client) and warm. */
export type ProbeAlone = { coldMs: number[]; warmMs: number[] };

export type ParallelFace = "dynamic" | "plugin";
export type ParallelOp = "up" | "refresh" | "destroy";

export interface ParallelRow {
  count: number;
  parallel: number;
  face: ParallelFace;
  op: ParallelOp;
  /** Requests a second per key the emulator allowed; null: unlimited. */
  rateLimit: number | null;
  ms: number;
  /** The floor's up at the same P (unlimited rows only: the floor sends no request). */
  floorMs?: number;
  /** The floor holding a Subnet's inputs and outputs, at the same P (absent in runs before it was measured). */
  floorLikeMs?: number;
  /** Unlimited rows: how many interleaved runs of ours and the floors gave the medians above (absent: one). */
  rounds?: number;
  /** From the command's start to its first request, and from its last request to its end. */
  beforeFirstMs: number;
  afterLastMs: number;
  /**
   * Limited up and destroy rows: the engine's own start and finish at the same P, as the floor
   * holding a Subnet's data shows them (from the command's start to its first resource's work,
   * from its last resource's end to the command's end; the least wall time uses the start, see
   * leastMs). Absent in runs before they were measured.
   */
  engineBeforeMs?: number;
  engineAfterMs?: number;
  requests: number;
  taskRequests: number;
  refused: number;
  /** Resources the command failed (0 is the target everywhere). */
  failed: number;
  ok: boolean;
}

/** `--only s3-scale`: the rows' commands (`drift`: `refresh --preview-only`; `change`: an `up` that renames a few). */
export type S3ScaleOp = "up" | "preview" | "drift" | "change";
/** What one command sent the S3-compatible server (tests/support/s3.ts's counting proxy). */
export interface S3Upload {
  requests: number;
  puts: number;
  /** PUT bodies: the bytes uploaded. */
  bytesPut: number;
  /** The largest PUT body: the checkpoint at its largest, as stored. */
  largestPut: number;
}
export interface S3ScaleRow {
  op: S3ScaleOp;
  count: number;
  /** The resources the command creates or updates: N for the first `up`, K for the change, 0 otherwise. */
  changes: number;
  ms: number;
  /** The floor holding a Subnet's data, the same command on a stack of its own in the same bucket. */
  floorMs: number;
  /** The floor's `up`s: its resources' work, from the first's start to the last's end (the rest is the engine's). */
  floorWorkMs?: number;
  /** Requests the emulator answered (429s among them), the 429s, and the lists of a scope's subnets. */
  requests: number;
  refused: number;
  lists: number;
  scopes: number;
  s3: S3Upload;
  floorS3: S3Upload;
  failed: number;
  ok: boolean;
}
/** bench/s3-scale.json. `memory`: each provider's peak RSS in an `up` of `count` (the dynamic face's and the floor's). */
export interface S3ScaleRun {
  machine: Machine;
  taskMs: number;
  parallel: number;
  rateLimit: number;
  gzip: boolean;
  rows: S3ScaleRow[];
  memory: Array<{ count: number; cims: number; floor: number }>;
}

/**
 * bench/memory.json (`--only memory`): the S3 run's memory figures on the file backend, at 50
 * and at each `--size` (`limited`: ours under the emulator's limit), with the load averages before each.
 */
export interface MemoryRun {
  machine: Machine;
  taskMs: number;
  pairs: Array<{ count: number; cims: number; floor: number; limited: boolean; load: number[] }>;
}

// ---- the tables ----

export const met = (b: boolean) => (b ? "met" : "**not met**");
/** Seconds, one decimal, from ms. */
const sec = (ms: number) => (ms / 1000).toFixed(1);
/** MB, whole, from bytes. */
export const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** The full run's tables; `rateLimitedCount`: the size whose refresh was also measured under the rate limit. */
function fullRunMarkdown(r: Results, rateLimitedCount: number): string {
  return [
    ...headlineMarkdown(r),
    ...lagMarkdown(r.lag),
    ...scaleMarkdown(r.scale),
    ...pluginScaleMarkdown(r.pluginScale),
    ...languagesMarkdown(r.languages),
    ...refreshMarkdown(r.refresh, rateLimitedCount),
    ...rateLimitedMarkdown(r.rateLimited, rateLimitedCount),
  ].join("\n");
}

/** One resource's share of the state, per face: what the provider writes against the whole (see docs/performance.md). */
function shareMarkdown(share: FacesRun["share"]): string[] {
  if (!share) return [];
  const row = (what: string, x: StateShare, target?: string) =>
    `| ${what}: inputs + outputs, of them \`__provider\`; \`stackTrace\`; the whole resource | ${x.inputsOutputs} B, ${x.provider} B; ${x.stackTrace} B; ${x.resource} B | ${target ?? "contrast"} | ${target ? met(x.inputsOutputs <= 1024) : ""} |`;
  const target = "inputs + outputs <= 1024 B; whole <= 2560 B where the program's share is small";
  return [
    row("a Subnet, dynamic face", share.cims, target),
    row("a Subnet, plugin face", share.plugin, target),
    row("the floor resource", share.floor),
  ];
}

/** The run's machine and sizes, then state sizes, preview/up against the floor, connections and memory. */
function headlineMarkdown(r: Results): string[] {
  const m = r.machine;
  return [
    `Measured ${m.date.slice(0, 10)} on ${m.cpus} cores (${m.cpuModel ?? "?"}), ${m.memoryGiB} GiB, Node ${m.node}, Pulumi ${m.pulumi}; ${r.params.resources} resources, task duration ${r.params.taskMs} ms, ${r.params.rounds} interleaved rounds; the bench took ${r.benchSeconds} s.`,
    "",
    "| what | measured | target | |",
    "|---|---|---|---|",
    `| \`__provider\` per Subnet | ${r.stateSize.providerBytesMax} B (${r.stateSize.providerTextsDistinct} distinct size) | <= 1024 B | ${met(r.stateSize.providerBytesMax <= 1024)} |`,
    `| whole state per Subnet | ${r.stateSize.stateBytesPerResource} B | | |`,
    ...shareMarkdown(r.stateSize.share),
    `| \`__provider\` of a naive provider (undici at top level) | ${r.stateSize.naiveProviderBytes} B; deploying it ${r.stateSize.naiveOutcome} | contrast | |`,
    `| \`__provider\` of the no-op floor resource | ${r.stateSize.floorProviderBytes} B | contrast | |`,
    `| \`pulumi preview\`, ours / floor (median) | ${sec(median(r.overhead.previewMs.cims))} s / ${sec(median(r.overhead.previewMs.floor))} s = ${r.overhead.previewRatio.toFixed(2)}x | <= 1.15x | ${met(r.overhead.previewRatio <= 1.15)} |`,
    `| \`pulumi up\`, ours / floor (median) | ${sec(median(r.overhead.upMs.cims))} s / ${sec(median(r.overhead.upMs.floor))} s = ${r.overhead.upRatio.toFixed(2)}x | <= 1.15x | ${met(r.overhead.upRatio <= 1.15)} |`,
    ...(r.overhead.upMs.plugin && r.memory.pluginPeakRssBytes !== undefined
      ? facesMarkdown({
          upMs: r.overhead.upMs,
          pluginPeakRss: r.memory.pluginPeakRssBytes,
          peakRss: r.memory.providerPeakRssBytes,
          resources: r.params.resources,
        }).slice(2)
      : []),
    `| connections open at once (peak) in one up | ${r.connections.peakOpen} | <= ${r.connections.engineParallelism} (engine parallelism) | ${met(r.connections.peakOpen <= r.connections.engineParallelism)} |`,
    `| connections opened / requests in one up | ${r.connections.opened} / ${r.connections.requests} (idle sockets close after the server's 5 s keep-alive) | not one per request | ${met(r.connections.opened * 10 <= r.connections.requests)} |`,
    `| dynamic-provider peak RSS, ${r.params.resources}-resource up: ours / floor | ${mb(r.memory.providerPeakRssBytes)} MB / ${mb(r.memory.floorProviderPeakRssBytes)} MB | | |`,
  ];
}

function lagMarkdown(lag: LagRow[]): string[] {
  return [
    "",
    "Task-wait lag (median time from the emulator marking a task FINISHED to the waiter returning) and task GETs, the same tasks (nominal duration +/-10%) watched by all four waiters; ours without and with duration hints (learned from a warm-up task and the earlier samples of the same type):",
    "",
    "| task | ours, no hints: lag, GETs | ours, hints: lag, GETs | fixed 1 s: lag, GETs | fixed 3 s: lag, GETs | lag target (no hints) | lag | GETs <= fixed 1 s | hints beat no hints (lag lower, GETs not more) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...lag.map((l) => {
      const cell = (w: Waiter) => `${Math.round(l[w].medianLagMs)} ms, ${l[w].medianGets}`;
      const hintsWin = l.hints.medianLagMs < l.adaptive.medianLagMs && l.hints.medianGets <= l.adaptive.medianGets;
      return `| ${l.durationMs / 1000} s | ${cell("adaptive")} | ${cell("hints")} | ${cell("fixed1s")} | ${cell("fixed3s")} | ${Math.round(l.targetLagMs)} ms | ${met(l.adaptive.medianLagMs <= l.targetLagMs)} | ${met(l.adaptive.medianGets <= l.fixed1s.medianGets)} | ${hintsWin ? "yes" : "**no**"} |`;
    }),
  ];
}

function scaleMarkdown(scale: ScaleRow[]): string[] {
  return [
    "",
    "Scale: `pulumi up` of N Subnets against N floor resources (no-op, sleeping the same task duration), the engine's own cost:",
    "",
    "| resources | up: ours | up: floor | ours / floor (target <= 1.10x) | per resource | provider peak RSS |",
    "|---|---|---|---|---|---|",
    ...scale.map(
      (x) =>
        `| ${x.count} | ${sec(x.upMs)} s | ${sec(x.floorUpMs)} s | ${(x.upMs / x.floorUpMs).toFixed(2)}x ${met(x.upMs <= 1.1 * x.floorUpMs)} | ${x.upMsPerResource.toFixed(0)} ms | ${mb(x.peakRssBytes)} MB |`,
    ),
    ...rssGrowth(scale),
  ];
}

/** Provider RSS growth from the smallest to the largest size (target <= 50 MB from 10 to 1,000). */
function rssGrowth(scale: ScaleRow[]): string[] {
  if (scale.length < 2) return [];
  const [first, last] = [scale[0], scale[scale.length - 1]];
  const growth = last.peakRssBytes - first.peakRssBytes;
  const target = first.count === 10 && last.count === 1000 ? ` (target <= 50 MB: ${met(growth <= 50 * 2 ** 20)})` : "";
  return ["", `Provider peak RSS grows ${mb(growth)} MB from ${first.count} to ${last.count} resources${target}.`];
}

/** How many runs the plugin-scale figures are of. */
function runsSaid(rows: PluginScaleRow[]): string {
  const rounds = rows[0].rounds ?? 1;
  return rounds > 1 ? `preview and refresh: medians of ${rounds} runs; up: one run` : "one run of each";
}

/** The plugin face at scale against the floor with a Subnet's data (the targets) and the bare floor. */
export function pluginScaleMarkdown(rows: PluginScaleRow[] | undefined): string[] {
  if (!rows?.length) return [];
  const ratio = (ours: number, floor: number) => `${sec(ours)} s / ${sec(floor)} s = ${(ours / floor).toFixed(2)}x`;
  const cell = (x: Record<ScaleFace, number>, target?: number) =>
    ratio(x.plugin, x.floorLike) +
    (target ? ` (<= ${target.toFixed(2)}x: ${met(x.plugin / x.floorLike <= target)})` : "") +
    `; bare floor: ${ratio(x.plugin, x.floor)}`;
  return [
    "",
    `The plugin face at scale: \`pulumi preview\`, \`up\` and \`refresh\` of N Subnets through \`pulumi-resource-cims\` against N floor resources holding a Subnet's recorded inputs and outputs (the same data for the engine to move: the targets are judged against it), and against the bare floor (3 values per resource against a Subnet's 30-odd); the first of the three rotating; ${runsSaid(rows)}:`,
    "",
    "| subnets | preview | up | refresh |",
    "|---|---|---|---|",
    ...rows.map((x) => `| ${x.count} | ${cell(x.previewMs, 1.1)} | ${cell(x.upMs, 1.05)} | ${cell(x.refreshMs, 1.1)} |`),
  ];
}

/** A Python program's `up` against the TypeScript one's: medians of the interleaved rounds, and their ratio. */
export function languagesMarkdown(l: Languages | undefined): string[] {
  if (!l) return [];
  const [py, ts] = [median(l.upMs.python), median(l.upMs.typescript)];
  return [
    "",
    `A Python program (the \`pulumi_cims\` SDK) against the TypeScript one, \`pulumi up\` of ${l.count} Subnets through the plugin face, the TypeScript program type-checked as it runs as a user's is (${l.upMs.python.length} interleaved rounds, medians): Python ${sec(py)} s, TypeScript ${sec(ts)} s, Python / TypeScript ${(py / ts).toFixed(2)}x.`,
  ];
}

/** Refresh with coalescing on and off against both floors; the ratio targets hold at `rateLimitedCount`. */
function refreshMarkdown(refresh: RefreshRow[], rateLimitedCount: number): string[] {
  return [
    "",
    "Refresh: `pulumi refresh` of N Subnets across 2 scopes: ours (reads coalesced into list requests), the same code with `CIMS_COALESCE_READS=false` (a GET each), and N floor resources whose read() sends nothing, as they are and carrying a Subnet's properties (the same data for the engine to move); medians of interleaved rounds:",
    "",
    "| subnets | ours: requests (most lists of a scope), time | coalescing off: requests, time | floor: time | floor with a Subnet's properties: time | ours / floor | ours / floor with properties | requests <= 2 per scope per 1,000 |",
    "|---|---|---|---|---|---|---|---|",
    ...refresh.map((x) => {
      const ratio = x.cims.ms / x.floor.ms;
      const padded = x.cims.ms / x.floorLike.ms;
      const target = (v: number) => (x.count === rateLimitedCount ? ` (<= 1.10x: ${met(v <= 1.1)})` : "");
      return `| ${x.count} | ${x.cims.requests} (${x.cims.listsPerScope}), ${sec(x.cims.ms)} s | ${x.off.requests}, ${sec(x.off.ms)} s | ${sec(x.floor.ms)} s | ${sec(x.floorLike.ms)} s | ${ratio.toFixed(2)}x${target(ratio)} | ${padded.toFixed(2)}x${target(padded)} | ${met(x.cims.listsPerScope <= 2 * Math.ceil(x.count / 2 / 1000))} |`;
    }),
  ];
}

function rateLimitedMarkdown(rows: RateLimitedRow[], rateLimitedCount: number): string[] {
  return [
    "",
    `Refresh of ${rateLimitedCount} Subnets while the emulator allows ${RATE_LIMIT_PER_SECOND} requests per second per key (429 with Retry-After beyond):`,
    "",
    "| reads | time | exit | failed resources | requests (429s) |",
    "|---|---|---|---|---|",
    ...rows.map(
      (x) =>
        `| ${x.mode === "cims" ? "ours (coalesced)" : "coalescing off"} | ${sec(x.ms)} s | ${x.ok ? "0" : "non-zero"} | ${x.failedResources} | ${x.requests} (${x.refused}) |`,
    ),
    "",
  ];
}

/** The date a figure was measured: the file's own, else the commit that last changed it (files written before they carried one). */
function measuredOn(file: string, m: Machine | undefined): string {
  if (m) return `measured ${m.date.slice(0, 10)} on ${m.cpus} cores (${m.cpuModel ?? "?"}), ${m.memoryGiB} GiB, Node ${m.node}`;
  try {
    const day = execFileSync("git", ["log", "-1", "--format=%cs", "--", `bench/${file}`], { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    if (day) return `committed ${day}; the file does not record the machine`;
  } catch {
    // not a git checkout: say only what the file says
  }
  return "the file does not record when or where";
}

async function readJson<T>(dir: string, file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, file), "utf8")) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** A section's heading and the command that measured it: `npm run bench -- --only <only>`. */
function onlyHeading(title: string, file: string, only: string, m: Machine | undefined): string[] {
  return [`## ${title} (\`${file}\`)`, "", `\`npm run bench -- --only ${only}\`, ${measuredOn(file, m)}.`];
}

/**
 * results.md in `dir` from every JSON file of the bench there: one section per file, each
 * saying when it was measured. `rateLimitedCount`: the refresh size the run measured under
 * the rate limit (200; 3 in a smoke run).
 */
export async function renderResults(dir: string, rateLimitedCount: number): Promise<string> {
  const results = await readJson<Results>(dir, "results.json");
  const facesRun = await readJson<FacesRun>(dir, "faces.json");
  const hintsRun = await readJson<HintsRun>(dir, "hints.json");
  const probeRun = await readJson<ProbeRun>(dir, "probe-cost.json");
  const pluginScaleRun = await readJson<PluginScaleRun>(dir, "plugin-scale.json");
  const languagesRun = await readJson<LanguagesRun>(dir, "languages.json");
  const parallelRun = await readJson<ParallelRun>(dir, "parallel.json");
  const s3ScaleRun = await readJson<S3ScaleRun>(dir, "s3-scale.json");
  const memoryRun = await readJson<MemoryRun>(dir, "memory.json");
  const lines = [
    "# Bench results",
    "",
    "Written by `bench/run.ts` from the JSON files beside this one (`npm run bench` measures and writes both;",
    "`npm run bench:render` rebuilds this file from the JSON alone). Do not edit it by hand. What each run does",
    "and why: [docs/performance.md](../docs/performance.md).",
    "",
  ];
  if (results) {
    lines.push(
      "## Full run (`results.json`)",
      "",
      fullRunMarkdown(results, rateLimitedCount),
      "",
      "![median task-wait lag](task-lag.svg)",
      "",
    );
  }
  if (facesRun) {
    lines.push(
      ...onlyHeading("Faces: dynamic, plugin, floor", "faces.json", "faces", facesRun.machine),
      "",
      ...facesRunMarkdown(facesRun),
      "",
    );
  }
  if (pluginScaleRun) {
    const heading = onlyHeading("The plugin face at scale", "plugin-scale.json", "plugin-scale", pluginScaleRun.machine);
    lines.push(...heading, ...pluginScaleMarkdown(pluginScaleRun.rows), "");
  }
  if (languagesRun) {
    const heading = onlyHeading("A Python program against the TypeScript one", "languages.json", "languages", languagesRun.machine);
    lines.push(...heading, ...languagesMarkdown(languagesRun), "");
  }
  if (hintsRun) lines.push(...onlyHeading("Duration hints", "hints.json", "hints", hintsRun.machine), "", ...hintsMarkdown(hintsRun.rows));
  if (probeRun) {
    const heading = onlyHeading("Proving the key at preview", "probe-cost.json", "probe", probeRun.machine);
    lines.push(...heading, "", ...probeMarkdown(probeRun.rows, probeRun.alone));
  }
  if (parallelRun) {
    const heading = onlyHeading("Engine parallelism, with and without the rate limit", "parallel.json", "parallel", parallelRun.machine);
    lines.push("", ...heading, ...parallelMarkdown(parallelRun.rows, parallelRun.taskMs));
  }
  if (s3ScaleRun) {
    const heading = onlyHeading(
      "A large stack on an S3-compatible backend",
      "s3-scale.json",
      "s3-scale --size 200,2000",
      s3ScaleRun.machine,
    );
    lines.push("", ...heading, ...s3ScaleMarkdown(s3ScaleRun));
  }
  if (memoryRun) {
    const heading = onlyHeading("The dynamic face's memory, at 50 and at 2,000", "memory.json", "memory --size 2000", memoryRun.machine);
    lines.push("", ...heading, ...memoryMarkdown(memoryRun).flatMap((line) => ["", line]));
  }
  const md = lines.join("\n").replace(/\n+$/, "\n");
  await writeFile(path.join(dir, "results.md"), md);
  return md;
}

/**
 * The plugin face's row: `pulumi up` of the same N Subnets through `pulumi-resource-cims`
 * (one long-lived provider process for the stack) against the dynamic face and the floor.
 */
function facesMarkdown(f: { upMs: Record<string, number[]>; peakRss: number; pluginPeakRss: number; resources: number }): string[] {
  const up = (face: string): number => median(f.upMs[face]);
  return [
    "| what | measured | target | |",
    "|---|---|---|---|",
    `| \`pulumi up\`, plugin face / dynamic face / floor (median) | ${sec(up("plugin"))} s / ${sec(up("cims"))} s / ${sec(up("floor"))} s: plugin / floor ${(up("plugin") / up("floor")).toFixed(2)}x, plugin / dynamic ${(up("plugin") / up("cims")).toFixed(2)}x | | |`,
    `| provider peak RSS, ${f.resources}-resource up: plugin / dynamic | ${mb(f.pluginPeakRss)} MB / ${mb(f.peakRss)} MB | | |`,
  ];
}

/** The `--only faces` rounds: each face's median preview and up against the floor. */
export function facesRunMarkdown(f: FacesRun): string[] {
  const faces = ["cims", "plugin", "floor"] as const;
  const row = (what: string, ms: Record<(typeof faces)[number], number[]>) =>
    `| ${what} | ${faces.map((face) => `${sec(median(ms[face]))} s`).join(" | ")} |`;
  const rss = f.peakRssBytes;
  return [
    `Interleaved rounds (${f.upMs.cims.length}), medians: N Subnets through the dynamic face, through \`pulumi-resource-cims\` (\`cims.native.Subnet\`, the same methods), and N floor resources${f.resources ? `; N = ${f.resources}` : ""}.`,
    "",
    "| | dynamic face | plugin face | floor |",
    "|---|---|---|---|",
    row("`pulumi up`", f.upMs),
    row("`pulumi preview`", f.previewMs),
    ...(rss ? [`| provider peak RSS in that \`up\` | ${mb(rss.cims)} MB | ${mb(rss.plugin)} MB | |`] : []),
    "",
    "| what | measured | target | |",
    "|---|---|---|---|",
    `| \`__provider\` per Subnet | ${f.providerBytesMax} B | <= 1024 B | ${met(f.providerBytesMax <= 1024)} |`,
    ...shareMarkdown(f.share),
    `| \`pulumi preview\`, dynamic face / floor | ${f.previewRatio.toFixed(2)}x | <= 1.15x | ${met(f.previewRatio <= 1.15)} |`,
    `| \`pulumi up\`, dynamic face / floor | ${f.upRatio.toFixed(2)}x | <= 1.15x | ${met(f.upRatio <= 1.15)} |`,
    `| \`pulumi up\`, plugin face / floor | ${f.pluginUpRatio.toFixed(2)}x | | |`,
    `| \`pulumi up\`, plugin face / dynamic face | ${(median(f.upMs.plugin) / median(f.upMs.cims)).toFixed(2)}x | | |`,
  ];
}

/** Each size's medians, spreads and saving: whether the hints win beyond the noise. */
export function verdicts(rows: HintsRow[]): HintsVerdict[] {
  return rows.map((r) => {
    const medianMs = { on: median(r.upMs.on), off: median(r.upMs.off) };
    const spreadMs = { on: Math.max(...r.upMs.on) - Math.min(...r.upMs.on), off: Math.max(...r.upMs.off) - Math.min(...r.upMs.off) };
    const savedMs = medianMs.off - medianMs.on;
    return {
      count: r.count,
      medianMs,
      spreadMs,
      savedMs,
      medianTaskGets: { on: median(r.taskGets.on), off: median(r.taskGets.off) },
      winsBeyondNoise: savedMs > Math.max(spreadMs.on, spreadMs.off),
    };
  });
}

export function hintsMarkdown(rows: HintsRow[]): string[] {
  return [
    "Duration hints: `pulumi up` of N Subnets, proportional schedule with hints (as shipped) and without (`CIMS_TASK_HINTS=off`), interleaved rounds; the spread (slowest - fastest round of a side) is the noise a difference must beat:",
    "",
    "| subnets | rounds | hints on: median (spread) | hints off: median (spread) | saved by hints | task GETs per subnet on / off | beyond the noise |",
    "|---|---|---|---|---|---|---|",
    ...verdicts(rows).map(
      (v, i) =>
        `| ${v.count} | ${rows[i].upMs.on.length} | ${sec(v.medianMs.on)} s (${sec(v.spreadMs.on)} s) | ${sec(v.medianMs.off)} s (${sec(v.spreadMs.off)} s) | ${sec(v.savedMs)} s | ${v.medianTaskGets.on.toFixed(1)} / ${v.medianTaskGets.off.toFixed(1)} | ${v.winsBeyondNoise ? "yes" : "**no**"} |`,
    ),
    "",
  ];
}

export function probeMarkdown(rows: ProbeRow[], alone?: ProbeAlone): string[] {
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  return [
    "Proving the key at preview: `pulumi preview` of an unchanged stack of N Subnets with the credential probe (as shipped) and without (`CIMS_SKIP_CREDENTIALS_VALIDATION=true`), interleaved rounds; the spread (slowest - fastest round of a side) is the noise a difference must beat:",
    "",
    "| face | subnets | rounds | with probe: median (spread) | skipped: median (spread) | probe's cost | probe requests per preview |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((r) => {
      const on = median(r.previewMs.probe);
      const off = median(r.previewMs.skip);
      const face = r.face === "cims" ? "dynamic" : "plugin";
      return `| ${face} | ${r.count} | ${r.previewMs.probe.length} | ${s(on)} s (${s(spread(r.previewMs.probe))} s) | ${s(off)} s (${s(spread(r.previewMs.skip))} s) | ${((on - off) / 1000).toFixed(2)} s (${((on / off - 1) * 100).toFixed(1)}%) | ${Math.max(...r.probesPerPreview.probe)} / ${Math.max(...r.probesPerPreview.skip)} |`;
    }),
    "",
    ...(alone
      ? [
          `The probe alone (a fresh node process per round, ${alone.coldMs.length} rounds, median): ${median(alone.coldMs).toFixed(0)} ms cold (loading the HTTP client included), ${median(alone.warmMs).toFixed(1)} ms warm.`,
          "",
        ]
      : []),
  ];
}

/**
 * The time the limit itself imposes on a row: the requests it accepted at the rate, less the
 * one second's burst its bucket starts with (a 429 costs the service nothing and is not counted).
 */
const imposedMs = (r: ParallelRow) => (r.rateLimit === null ? 0 : (Math.max(0, r.requests - r.refused - r.rateLimit) * 1000) / r.rateLimit);

/**
 * The wall-time model of an `up` of N resources at parallelism P whose tasks take T:
 * `start + ceil(N / P) * (T + lag) + N * perResource`, fitted by least squares to the rows
 * without a limit (each side's own up). Its largest error says how far the model holds.
 */
export interface WallModel {
  startMs: number;
  /** T + lag: the time a slot holds a resource beyond the engine's own cost. */
  waveMs: number;
  perResourceMs: number;
  worstErrorMs: number;
}

export function fitWallModel(points: Array<{ count: number; parallel: number; ms: number }>): WallModel | undefined {
  if (points.length < 3) return undefined;
  const x = points.map((p) => [1, Math.ceil(p.count / p.parallel), p.count]);
  const y = points.map((p) => p.ms);
  // Normal equations (X'X) b = X'y, three unknowns, solved by elimination.
  const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => x.reduce((s, r) => s + r[i] * r[j], 0)));
  const b = [0, 1, 2].map((i) => x.reduce((s, r, k) => s + r[i] * y[k], 0));
  const solved = solve3(a, b);
  if (!solved) return undefined;
  const [startMs, waveMs, perResourceMs] = solved;
  const worstErrorMs = Math.max(...x.map((r, k) => Math.abs(startMs + waveMs * r[1] + perResourceMs * r[2] - y[k])));
  return { startMs, waveMs, perResourceMs, worstErrorMs };
}

/** Gaussian elimination with partial pivoting; undefined when the points do not pin the model down. */
function solve3(a: number[][], b: number[]): number[] | undefined {
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < 3; col++) {
    const pivot = m.slice(col).reduce((best, row, i) => (Math.abs(row[col]) > Math.abs(m[best][col]) ? col + i : best), col);
    if (Math.abs(m[pivot][col]) < 1e-9) return undefined;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c < 4; c++) m[r][c] -= f * m[col][c];
    }
  }
  return [0, 1, 2].map((i) => m[i][3] / m[i][i]);
}

/** The model's lines for the report: ours and the floor, with the lag as the wave's time beyond T. */
function modelMarkdown(rows: ParallelRow[], taskMs: number | undefined): string[] {
  const unlimited = rows.filter((r) => r.rateLimit === null);
  const ours = fitWallModel(unlimited);
  const floor = fitWallModel(unlimited.map((r) => ({ ...r, ms: r.floorMs ?? r.ms })));
  const withData = unlimited.filter((r) => r.floorLikeMs !== undefined);
  const floorLike =
    withData.length === unlimited.length ? fitWallModel(withData.map((r) => ({ ...r, ms: r.floorLikeMs ?? r.ms }))) : undefined;
  if (!ours || !floor) return [];
  const said = (name: string, m: WallModel) =>
    `| ${name} | ${sec(m.startMs)} | ${(m.waveMs / 1000).toFixed(2)}${taskMs === undefined ? "" : ` (lag ${((m.waveMs - taskMs) / 1000).toFixed(2)})`} | ${m.perResourceMs.toFixed(0)} | ${sec(m.worstErrorMs)} |`;
  return [
    "",
    "The wall time of an `up` of N resources at `--parallel` P, `start + ceil(N / P) * (T + lag) + N * engine cost`, fitted",
    `to the rows above (least squares; T = ${taskMs === undefined ? "the task's duration" : `${(taskMs / 1000).toFixed(1)} s`}):`,
    "",
    "| side | start (s) | a wave: T + lag (s) | engine cost per resource (ms) | largest error of the fit (s) |",
    "|---|---|---|---|---|",
    said("ours (dynamic face)", ours),
    said("floor", floor),
    ...(floorLike ? [said("floor with a Subnet's data", floorLike)] : []),
  ];
}

/** Ours against the floor without a limit; against what the limit imposes under one. */
export function parallelMarkdown(rows: ParallelRow[], taskMs?: number): string[] {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const unlimited = rows.filter((r) => r.rateLimit === null);
  const limited = rows.filter((r) => r.rateLimit !== null);
  const failed = (r: ParallelRow) => `${r.failed}${r.ok ? "" : " (exit non-zero)"}`;
  const lines = [
    "",
    ...unlimitedMarkdown(unlimited),
    ...modelMarkdown(rows, taskMs),
    "",
    "Under the emulator's rate limit, both faces, `up`, `refresh` and `destroy` of the same stack. The limit's time is what",
    "the accepted requests cost at the rate (less the one second's burst the bucket starts with); the requests' window is from the",
    "first request to the last, the rest of the wall time being the engine's start and finish, which no pacing changes.",
    "The least wall time is the engine's start plus the limit's time or, when longer, the waves of tasks the engine's P allows",
    "(ceil(N / P) x T): what the row would take had its requests begun as soon as the engine lets any provider work and then",
    "been paced perfectly. The engine's start is the floor's at that P (the floor holding a Subnet's data, from the command's",
    "start to its first resource's work), or the row's own time to its first request where that was shorter.",
    "Targets: no resource failed; wall time within 1.2x of the limit's time.",
    "",
    "| subnets | --parallel | face | command | wall (s) | requests' window (s) | limit's time (s) | wall / limit's time | window / limit's time | least wall (s) | least / limit's time | wall / least | requests / subnet | task requests / subnet | 429s | failed |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...limited.map((r) => {
      const imposed = imposedMs(r);
      const window = r.ms - r.beforeFirstMs - r.afterLastMs;
      const least = leastMs(r, imposed, taskMs);
      return row([
        r.count,
        r.parallel,
        r.face,
        r.op,
        sec(r.ms),
        sec(window),
        sec(imposed),
        imposed > 0 ? ratio(r.ms, imposed) : "",
        imposed > 0 ? ratio(window, imposed) : "",
        least === undefined ? "" : sec(least),
        least === undefined ? "" : ratio(least, imposed),
        least === undefined ? "" : ratio(r.ms, least),
        (r.requests / r.count).toFixed(1),
        (r.taskRequests / r.count).toFixed(2),
        r.refused,
        failed(r),
      ]);
    }),
  ];
  return lines;
}

const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;

/**
 * The least wall time of a limited row: the engine's start, plus the limit's time or the
 * engine's waves of tasks (ceil(N / P) x T), whichever is longer. The engine's start is the
 * floor's (a dynamic provider, loaded on first use) or the row's own time to its first request
 * where that was shorter (the plugin's process starts beside the program). The finish is left
 * out: with many resources ending at once the floor's is the engine catching up, which a paced
 * run, its ends spread out, does not have. Undefined where the engine's start was not measured,
 * the task's duration is not known, or the row sent nothing the limit charges (a refresh
 * answered from one list).
 */
function leastMs(r: ParallelRow, imposedMs: number, taskMs: number | undefined): number | undefined {
  if (r.engineBeforeMs === undefined || taskMs === undefined || imposedMs <= 0) return undefined;
  return Math.min(r.engineBeforeMs, r.beforeFirstMs) + Math.max(imposedMs, Math.ceil(r.count / r.parallel) * taskMs);
}

/**
 * Ours against the floor at the same P. Runs that also measured the floor holding a Subnet's
 * data (the same data for the engine to move and checkpoint) are judged against that floor, as
 * the plugin face's rows are; older runs against the bare floor.
 */
/** Which sizes' figures are medians of interleaved runs (rows measured so carry `rounds`). */
function roundsSaid(unlimited: ParallelRow[]): string[] {
  const repeated = unlimited.filter((r) => (r.rounds ?? 1) > 1);
  if (repeated.length === 0) return [];
  const sizes = [...new Set(repeated.map((r) => `${r.count} subnets (${r.rounds} runs)`))];
  return [
    `Where a row is short, each of its three figures is the median of interleaved runs of ours and both floors: ${sizes.join(", ")}.`,
  ];
}

function unlimitedMarkdown(unlimited: ParallelRow[]): string[] {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const failed = (r: ParallelRow) => `${r.failed}${r.ok ? "" : " (exit non-zero)"}`;
  const withData = unlimited.length > 0 && unlimited.every((r) => r.floorLikeMs !== undefined);
  const common = (r: ParallelRow) => [(r.requests / r.count).toFixed(1), (r.taskRequests / r.count).toFixed(2), failed(r)];
  const floorOf = (r: ParallelRow) => r.floorMs ?? r.ms;
  if (!withData) {
    return [
      "Without a rate limit: `pulumi up` of the dynamic face against the floor at the same `--parallel` (target <= 1.10x).",
      "",
      "| subnets | --parallel | up (s) | floor (s) | ours / floor | requests / subnet | task requests / subnet | failed |",
      "|---|---|---|---|---|---|---|---|",
      ...unlimited.map((r) => row([r.count, r.parallel, sec(r.ms), sec(floorOf(r)), ratio(r.ms, floorOf(r)), ...common(r)])),
    ];
  }
  const like = (r: ParallelRow) => r.floorLikeMs ?? r.ms;
  return [
    "Without a rate limit: `pulumi up` of the dynamic face against the floor at the same `--parallel`, bare and holding a",
    "Subnet's inputs and outputs (the same data for the engine to move and checkpoint). Target: <= 1.10x of the floor with the data.",
    ...roundsSaid(unlimited),
    "",
    "| subnets | --parallel | up (s) | floor (s) | floor with a Subnet's data (s) | ours / bare floor | ours / floor with the data | requests / subnet | task requests / subnet | failed |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...unlimited.map((r) =>
      row([r.count, r.parallel, sec(r.ms), sec(floorOf(r)), sec(like(r)), ratio(r.ms, floorOf(r)), ratio(r.ms, like(r)), ...common(r)]),
    ),
  ];
}

// ---- the S3 backend at scale (s3-scale.json) ----

/** Where the limit binds, the least an `up` could take: the floor's own start and finish, and the limit's time or its work. */
export function s3LeastMs(r: S3ScaleRow, rateLimit: number): number {
  const limitMs = (Math.max(0, r.requests - r.refused - rateLimit) * 1000) / rateLimit;
  if (r.floorWorkMs === undefined) return r.floorMs;
  return r.floorMs - r.floorWorkMs + Math.max(r.floorWorkMs, limitMs);
}

/** The row's targets: within 1.15x of the floor (of the least where the limit binds), a change of K at most 3 MB uploaded, a drift check at most 2 lists a scope, nothing failed. */
export function s3Verdict(r: S3ScaleRow, rateLimit: number): { ratio: number; met: boolean } {
  const ratio = r.ms / Math.max(r.floorMs, s3LeastMs(r, rateLimit));
  const upload = r.op !== "change" || r.s3.bytesPut <= 3e6;
  const lists = r.op !== "drift" || r.lists <= 2 * r.scopes;
  return { ratio, met: ratio <= 1.15 && upload && lists && r.failed === 0 && r.ok };
}

/**
 * The checkpoint model: the bytes an `up` uploads are its checkpoint writes times the
 * checkpoint's size as stored. The size grows with the resources the stack holds (`perResource`
 * bytes each, the largest PUT over the stack's size); the writes are `perStep` per resource the
 * command creates or updates plus `fixed` of the whole (its start and end). While an `up` creates
 * the stack, the checkpoint grows from nothing to its full size, so a write is on average half of
 * it; an `up` that changes K of N writes the full one each time:
 *
 *     bytes = (perStep x K + fixed) x perResource x N x (1/2 when creating the N, else 1)
 *
 * Fitted by least squares of the relative errors to the rows that wrote (`up` and `change`);
 * undefined with fewer than two.
 */
export interface CheckpointFit {
  perResource: number;
  perStep: number;
  fixed: number;
  /** The largest of |predicted - measured| / measured over the rows. */
  worstRelError: number;
}

type Upload = { op: S3ScaleOp; count: number; changes: number; bytesPut: number; largestPut: number };

const meanCheckpoint = (u: { op: S3ScaleOp; count: number }, perResource: number) => perResource * u.count * (u.op === "up" ? 0.5 : 1);

export function fitCheckpoints(rows: Upload[]): CheckpointFit | undefined {
  const writing = rows.filter((r) => (r.op === "up" || r.op === "change") && r.bytesPut > 0 && r.count > 0);
  if (writing.length < 2) return undefined;
  const perResource = median(writing.map((r) => r.largestPut / r.count));
  // bytes = a * (K * S) + b * S, S the mean checkpoint: two unknowns, normal equations. Each
  // row's equation is divided by its bytes, so the errors are relative: a change of 10 uploads
  // a hundredth of a creating up, and its fit is what the 3 MB target asks of the model.
  const x = writing.map((r) => [r.changes * meanCheckpoint(r, perResource), meanCheckpoint(r, perResource)].map((v) => v / r.bytesPut));
  const dot = (i: number, j: number) => x.reduce((s, v) => s + v[i] * v[j], 0);
  const xy = (i: number) => x.reduce((s, v) => s + v[i], 0);
  const det = dot(0, 0) * dot(1, 1) - dot(0, 1) ** 2;
  if (Math.abs(det) < 1e-9 * dot(0, 0) * dot(1, 1)) return undefined;
  const perStep = (xy(0) * dot(1, 1) - xy(1) * dot(0, 1)) / det;
  const fixed = (xy(1) * dot(0, 0) - xy(0) * dot(0, 1)) / det;
  const worstRelError = Math.max(...x.map((v) => Math.abs(perStep * v[0] + fixed * v[1] - 1)));
  return { perResource, perStep, fixed, worstRelError };
}

/** What the model says an `up` of `count` resources that creates (`op` up) or changes `changes` of them uploads. */
export function predictUpload(fit: CheckpointFit, u: { op: S3ScaleOp; count: number; changes: number }): number {
  return (fit.perStep * u.changes + fit.fixed) * meanCheckpoint(u, fit.perResource);
}

const megabytes = (b: number) => (b / 1e6).toFixed(b < 1e7 ? 2 : 0);

export function memoryMarkdown(run: Omit<MemoryRun, "machine">): string[] {
  return run.pairs.map(
    (m) =>
      `Provider peak RSS in an \`up\` of ${m.count} (file backend, ${m.limited ? "ours under the limit" : "no limit"}, ${sec(run.taskMs)} s tasks): ours ${mb(m.cims)} MB, ` +
      `the floor's ${mb(m.floor)} MB, ${(m.cims / m.floor).toFixed(2)}x (target <= 1.2x: ${met(m.cims <= 1.2 * m.floor)}; ` +
      `load before it ${m.load.map((l) => l.toFixed(2)).join(", ")}).`,
  );
}

export function s3ScaleMarkdown(run: Omit<S3ScaleRun, "machine">): string[] {
  const { rateLimit } = run;
  const what: Record<S3ScaleOp, string> = {
    up: "`up` (creates all)",
    preview: "`preview`, no change",
    drift: "`refresh --preview-only`",
    change: "`up` changing K",
  };
  const lines = [
    "",
    `The state in an S3-compatible bucket (scripts/s3-server), gzipped (\`PULUMI_DIY_BACKEND_GZIP=true\`), \`--parallel ${run.parallel}\`, ` +
      `the emulator allowing ${rateLimit} requests a second, ${sec(run.taskMs)} s tasks. Each command beside the floor holding a Subnet's data ` +
      "(the same command on its own stack in the same bucket). Where the limit binds, a row is judged against its least wall time: the floor's " +
      "own start and finish plus the limit's time (accepted requests / rate) or the floor's work, whichever is longer. Uploaded: the PUT bodies " +
      "the server received (MB = 10^6 bytes). Targets: each within 1.15x; the change of K uploads at most 3 MB; the drift check at most 2 list " +
      "requests a scope; no resource failed.",
    "",
    "| subnets | command | K | wall (s) | floor (s) | least (s) | ours / floor | ours / least | uploaded (MB) | floor uploaded (MB) | checkpoint (KB, stored) | S3 requests | requests | 429s | lists / scope | failed | |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...run.rows.map((r) => {
      const least = s3LeastMs(r, rateLimit);
      const v = s3Verdict(r, rateLimit);
      return row([
        r.count,
        what[r.op],
        r.changes,
        sec(r.ms),
        sec(r.floorMs),
        sec(least),
        `${(r.ms / r.floorMs).toFixed(2)}x`,
        `${v.ratio.toFixed(2)}x`,
        megabytes(r.s3.bytesPut),
        megabytes(r.floorS3.bytesPut),
        (r.s3.largestPut / 1e3).toFixed(0),
        r.s3.requests,
        r.requests,
        r.refused,
        (r.lists / r.scopes).toFixed(0),
        `${r.failed}${r.ok ? "" : " (exit non-zero)"}`,
        met(v.met),
      ]);
    }),
    "",
    ...run.memory.map(
      (m) =>
        `Provider peak RSS in an \`up\` of ${m.count}: ours ${mb(m.cims)} MB, the floor's ${mb(m.floor)} MB, ` +
        `${(m.cims / m.floor).toFixed(2)}x (target <= 1.2x: ${met(m.cims <= 1.2 * m.floor)}).`,
    ),
    ...checkpointModelMarkdown(run.rows),
  ];
  return lines;
}

/** The model fitted to ours and to the floor's uploads, and what it says of a stack of 2,000. */
function checkpointModelMarkdown(rows: S3ScaleRow[]): string[] {
  const ours = fitCheckpoints(rows.map((r) => ({ ...r, ...r.s3 })));
  const floor = fitCheckpoints(rows.map((r) => ({ ...r, ...r.floorS3 })));
  if (!ours || !floor) return [];
  const said = (name: string, f: CheckpointFit) =>
    row([
      name,
      f.perResource.toFixed(0),
      f.perStep.toFixed(2),
      f.fixed.toFixed(1),
      `${(f.worstRelError * 100).toFixed(0)}%`,
      megabytes(predictUpload(f, { op: "up", count: 2000, changes: 2000 })),
      megabytes(predictUpload(f, { op: "change", count: 2000, changes: 10 })),
    ]);
  const writing = rows.filter((r) => r.op === "up" || r.op === "change").length;
  return [
    "",
    "The checkpoint model, fitted to the rows that wrote (docs/performance.md): bytes = (writes a step x K + fixed writes) x stored bytes a resource x N, halved while the `up` creates the N." +
      (writing <= 2
        ? " One size's two rows for two unknowns: the fit is exact and its error says nothing; `--size` with two sizes tests it."
        : ""),
    "",
    "| side | stored bytes / resource | writes / step | fixed writes | largest error | `up` of 2,000 (MB) | change of 10 in 2,000 (MB) |",
    "|---|---|---|---|---|---|---|",
    said("ours", ours),
    said("floor with a Subnet's data", floor),
  ];
}
