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
// and 200 subnets at --parallel 8, 16, 64 and 200 against the floor, then up, refresh and
// destroy on both faces under the emulator's rate limit; with --quick, 50 at 8 and 64), --render-only (run nothing:
// rebuild bench/results.md from the JSON files of earlier runs; `npm run bench:render`).
// Every run writes its figures as JSON and then renders results.md from all the files, so the
// markdown always holds every table and the docs link to it rather than copy numbers.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../provider/client";
import { REPO_ROOT, type TestStack } from "../tests/support/harness";
import { lagChart, median } from "./chart";
import { benchStack, peakProviderRss, type StateSizes, stateSizes, timed, type Mode } from "./stack-runs";
import { measureTaskLag, type Waiter } from "./scenarios/task-lag";
import { hintsExperiment, hintsMarkdown, type HintsRow, verdicts } from "./scenarios/hints-experiment";
import { probeAlone, probeExperiment, probeMarkdown, type ProbeRow } from "./scenarios/credentials-probe";
import { parallelExperiment, parallelMarkdown, type ParallelRow, type RequestTimes } from "./scenarios/parallel";

const Subnet = "pulumi-nodejs:dynamic/cims:Subnet";
const FLOOR = "pulumi-nodejs:dynamic/bench:Floor";
const NETWORK_ID = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01"; // examples/emulator-seed.json
const ENGINE_PARALLELISM = 8; // `pulumi up --help`: --parallel default on this machine

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    "task-ms": { type: "string" },
    quick: { type: "boolean", default: false },
    smoke: { type: "boolean", default: false },
    out: { type: "string" },
    only: { type: "string" },
    "render-only": { type: "boolean", default: false },
  },
});
const smoke = flags.smoke;
const quick = flags.quick || smoke;
const rounds = smoke ? 1 : quick ? 2 : Number(flags.rounds);
const taskMs = Number(flags["task-ms"] ?? (smoke ? 300 : 2000));
const N = smoke ? 3 : quick ? 10 : 50;
const scaleCounts = smoke ? [3] : quick ? [10, 50, 200] : [10, 50, 200, 1000];
/** The plugin face's preview, up and refresh against the floor (targets: up <= 1.05x, refresh <= 1.10x). */
const pluginScaleCounts = smoke ? [3] : quick ? [200] : [200, 1000];
const RATE_LIMITED_COUNT = smoke ? 3 : 200;
/** The harness stops a command after 5 minutes; an up of 1,000 resources may take longer. */
const LONG = { timeoutMs: 30 * 60_000 };
const RATE_LIMIT_PER_SECOND = 10;
const lagDurations = smoke ? [300] : quick ? [300, 2000] : [300, 2000, 20_000];
const lagSamples = smoke ? 1 : quick ? 3 : 15;

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const outDir = flags.out ? path.resolve(flags.out) : path.join(REPO_ROOT, "bench");
const benchFile = (f: string) => path.join(outDir, f);
const writeJson = (f: string, value: unknown) => writeFile(benchFile(f), JSON.stringify(value, null, 2) + "\n");

/** Where and when a run measured: every JSON file carries it, so a table says what it stands for. */
function machine(): Machine {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    pulumi: "v3.248.0",
    date: new Date().toISOString(),
  };
}
const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** Destroys run with instant tasks: they are not measured, and waiting for them would double the run. */
async function destroyFast(emulator: RunningEmulator, stack: TestStack): Promise<void> {
  const saved = emulator.engine.durationMs;
  emulator.engine.durationMs = 0;
  try {
    await stack.destroy([], LONG);
  } finally {
    emulator.engine.durationMs = saved;
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const apiKey = `bench-${randomBytes(8).toString("hex")}`;
  // When requests reached the emulator (each logs a line as it is answered): --only parallel.
  const requestTimes: RequestTimes = { first: undefined, last: undefined };
  const emulator = await startEmulator({
    apiKey,
    seed: path.join(REPO_ROOT, "examples/emulator-seed.json"),
    taskDurationMs: taskMs,
    log: () => {
      const now = Date.now();
      requestTimes.first ??= now;
      requestTimes.last = now;
    },
  });
  const cimsConfig = (count: number) => ({
    "bench:count": String(count),
    "bench:networkId": NETWORK_ID,
    "cims:apiUrl": emulator.url,
    "cims:projectId": "1",
    "cims:regionId": "1",
  });
  const stacks: TestStack[] = [];
  // Between rows a stack's resources go: a full run destroys them (instant tasks: the destroy
  // is not measured). A smoke run deletes the bench's subnets from the emulator's store and
  // empties the stack's state with `pulumi state delete --all`, which starts no program and no
  // provider: there a destroy costs about what the row does, for nothing the run checks.
  const clear = async (s: TestStack) => {
    if (!smoke) return destroyFast(emulator, s);
    for (const r of emulator.store.list("subnets")) if (/^bench-\d+$/.test(String(r.name))) emulator.store.delete("subnets", r.id);
    await s.run(["state", "delete", "--all", "--yes", "--stack", s.name]);
  };
  // With --smoke every size is the same and each step leaves its stacks empty, so one
  // stack of a mode, config and environment serves every step that asks for it: a third fewer
  // `stack init`s in the run `npm test` makes.
  const reused = new Map<string, TestStack>();
  const stack = async (mode: Mode, config: Record<string, string>, env: Record<string, string> = {}) => {
    const key = JSON.stringify([mode, config, env]);
    const made = smoke ? reused.get(key) : undefined;
    if (made) return made;
    const s = await benchStack(
      mode,
      config,
      mode === "cims" || mode === "plugin" || mode === "python" ? { "cims:apiKey": apiKey } : {},
      // A smoke run's figures mean nothing: its programs skip the type-check a user's get.
      smoke ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true", ...env } : env,
    );
    stacks.push(s);
    reused.set(key, s);
    return s;
  };
  // 8. The duration hints, on and off, on `up` of 50 and 200 subnets (interleaved rounds).
  const hintsRows = () =>
    hintsExperiment({
      emulator,
      counts: smoke ? [N] : quick ? [50] : [50, 200],
      rounds: smoke ? 1 : Math.max(3, rounds),
      stack: (mode, count) => stack("cims", cimsConfig(count), mode === "off" ? { CIMS_TASK_HINTS: "off" } : {}),
      up: (s) => s.up([], LONG),
      destroy: clear,
      log,
    });
  // 9. The credential probe's cost on preview of an unchanged stack, with and without it.
  const probeRows = () =>
    probeExperiment({
      emulator,
      count: N,
      rounds: smoke ? 1 : Math.max(5, rounds),
      faces: ["cims", "plugin"],
      stack: (face) => stack(face, cimsConfig(N)),
      destroy: clear,
      log,
      warm: !smoke,
    });
  type Face = "cims" | "plugin" | "floor";
  const overheadRounds = async (config: typeof cimsConfig) => {
    const of: Record<Face, TestStack> = {
      cims: await stack("cims", config(N)),
      plugin: await stack("plugin", config(N)),
      floor: await stack("floor", { "bench:count": String(N), "bench:taskMs": String(taskMs) }),
    };
    const times: Record<Face, { preview: number[]; up: number[] }> = {
      cims: { preview: [], up: [] },
      plugin: { preview: [], up: [] },
      floor: { preview: [], up: [] },
    };
    const out = { connections: 0, peakOpen: 0, requests: 0, peakRss: 0, floorPeakRss: 0, pluginPeakRss: 0 };
    let sizes: StateSizes | undefined;
    let floorSizes: StateSizes | undefined;
    const faces: Face[] = ["cims", "plugin", "floor"];
    for (let round = 0; round < rounds; round++) {
      for (const which of [...faces.slice(round % 3), ...faces.slice(0, round % 3)]) {
        const s = of[which];
        times[which].preview.push(await timed(() => s.preview()));
        emulator.metrics.reset();
        let upMs = 0;
        const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up([], LONG))));
        times[which].up.push(upMs);
        log(`round ${round + 1} ${which}: preview ${times[which].preview.at(-1)!.toFixed(0)} ms, up ${upMs.toFixed(0)} ms`);
        if (round === 0 && which === "cims") {
          const m = emulator.metrics.snapshot();
          Object.assign(out, { connections: m.connections, peakOpen: m.peak_open_connections, requests: m.total_requests, peakRss: rss });
          sizes = await stateSizes(s, Subnet);
        }
        if (round === 0 && which === "plugin") out.pluginPeakRss = rss;
        if (round === 0 && which === "floor") {
          floorSizes = await stateSizes(s, FLOOR);
          out.floorPeakRss = rss;
        }
        await clear(s);
      }
    }
    return { times, sizes: sizes!, floorSizes: floorSizes!, ...out };
  };
  // 6b. The plugin face at scale: preview, up and refresh of N Subnets through
  // pulumi-resource-cims (one provider process for the whole stack) against N floor resources,
  // bare and holding a Subnet's recorded inputs and outputs (the same data for the engine to
  // move: the targets are judged against that floor); which goes first rotates from step to step.
  const pluginScaleRows = async (roundCount: number) => {
    const rows: PluginScaleRow[] = [];
    // One Subnet's state on this face, for the floor to hold.
    const one = await stack("plugin", cimsConfig(1));
    await one.up([], LONG);
    const like = await subnetState(one, "cims:index:Subnet");
    await clear(one);
    for (const count of pluginScaleCounts) {
      const floorConfig = { "bench:count": String(count), "bench:taskMs": String(taskMs) };
      const of: Record<ScaleFace, TestStack> = {
        plugin: await stack("plugin", cimsConfig(count)),
        floor: await stack("floor", floorConfig),
        floorLike: await stack("floor", { ...floorConfig, "bench:like": JSON.stringify(like) }),
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
      rows.push(row);
      const said = (x: PluginScaleRow["upMs"]) => `${x.plugin.toFixed(0)} / ${x.floorLike.toFixed(0)} / ${x.floor.toFixed(0)} ms`;
      log(
        `plugin face ${count}: preview ${said(row.previewMs)}, up ${said(row.upMs)}, refresh ${said(row.refreshMs)} ` +
          `(plugin / floor with a Subnet's data / bare floor; preview and refresh: medians of ${roundCount})`,
      );
      await clear(of.plugin);
      await clear(of.floor);
      await clear(of.floorLike);
    }
    return rows;
  };
  // 6c. A Python program's `up` of N Subnets against the TypeScript program's, both through
  // the plugin (the same provider process and requests): the language runtime's cost.
  // Which goes first alternates from round to round, so both see the same load.
  const languageRows = async (roundCount: number): Promise<Languages> => {
    const languages: Languages = { count: N, upMs: { typescript: [], python: [] } };
    const of = { typescript: await stack("plugin", cimsConfig(N)), python: await stack("python", cimsConfig(N)) };
    for (let round = 0; round < roundCount; round++) {
      for (const lang of round % 2 === 0 ? (["typescript", "python"] as const) : (["python", "typescript"] as const)) {
        const ms = await timed(() => of[lang].up([], LONG));
        languages.upMs[lang].push(ms);
        log(`round ${round + 1} ${lang}: up of ${N} ${ms.toFixed(0)} ms`);
        await clear(of[lang]);
      }
    }
    log(`python / typescript up of ${N}: ${median(languages.upMs.python).toFixed(0)} / ${median(languages.upMs.typescript).toFixed(0)} ms`);
    return languages;
  };
  try {
    if (flags.only === "languages") {
      const languages = await languageRows(smoke ? 1 : Math.max(5, rounds));
      await writeJson("languages.json", { machine: machine(), ...languages });
      process.stdout.write(languagesMarkdown(languages).join("\n") + "\n");
      await renderResults();
      return;
    }
    if (flags.only === "plugin-scale") {
      const rows = await pluginScaleRows(smoke ? 1 : Math.max(5, rounds));
      await writeJson("plugin-scale.json", { machine: machine(), rows });
      process.stdout.write(pluginScaleMarkdown(rows, met).join("\n") + "\n");
      await renderResults();
      return;
    }
    if (flags.only === "hints") {
      const rows = await hintsRows();
      await writeJson("hints.json", { machine: machine(), rows, verdicts: verdicts(rows) });
      process.stdout.write(hintsMarkdown(rows).join("\n") + "\n");
      await renderResults();
      return;
    }
    if (flags.only === "parallel") {
      const rows = await parallelExperiment({
        emulator,
        seen: requestTimes,
        runs: quick
          ? [{ count: 50, parallel: [8, 64] }]
          : [
              { count: 50, parallel: [8, 16, 64] },
              { count: 200, parallel: [8, 16, 64, 200] },
            ],
        rateLimit: RATE_LIMIT_PER_SECOND,
        stack: (mode, count) =>
          mode === "floor"
            ? stack("floor", { "bench:count": String(count), "bench:taskMs": String(taskMs) })
            : stack(mode, cimsConfig(count)),
        clear,
        log,
      });
      await writeJson("parallel.json", { machine: machine(), taskMs, rows });
      process.stdout.write(parallelMarkdown(rows, taskMs).join("\n") + "\n");
      await renderResults();
      return;
    }
    if (flags.only === "probe") {
      const alone = await probeAlone(emulator.url, apiKey, 9);
      const rows = await probeRows();
      await writeJson("probe-cost.json", { machine: machine(), rows, alone });
      process.stdout.write(probeMarkdown(rows, alone).join("\n") + "\n");
      await renderResults();
      return;
    }
    // 1-5. Interleaved rounds: ours on both faces (dynamic, plugin) and the floor, preview
    // then up, median of the rounds.
    const faces = await overheadRounds(cimsConfig);
    if (flags.only === "faces") {
      // What the full run's first rows say, from these rounds alone (written to bench/faces.json).
      const { times: t, sizes: sz } = faces;
      const upMs = { cims: t.cims.up, plugin: t.plugin.up, floor: t.floor.up };
      const previewMs = { cims: t.cims.preview, plugin: t.plugin.preview, floor: t.floor.preview };
      const facesRun: FacesRun = {
        machine: machine(),
        previewMs,
        upMs,
        providerBytesMax: Math.max(...sz.providerBytes),
        previewRatio: median(t.cims.preview) / median(t.floor.preview),
        upRatio: median(t.cims.up) / median(t.floor.up),
        pluginUpRatio: median(t.plugin.up) / median(t.floor.up),
        peakRssBytes: { cims: faces.peakRss, plugin: faces.pluginPeakRss },
        resources: N,
      };
      await writeJson("faces.json", facesRun);
      process.stdout.write(facesRunMarkdown(facesRun).join("\n") + "\n");
      await renderResults();
      return;
    }
    const { times, connections, peakOpen, requests, peakRss, floorPeakRss, pluginPeakRss, sizes, floorSizes } = faces;

    // The naive provider, for contrast: the size of its serialized __provider (the engine's
    // serializer, in a program), and whether it deploys at all.
    const naiveSize = await stack("naive-size", { "bench:count": "0" });
    await naiveSize.up();
    const naiveProviderBytes = Number((await naiveSize.outputs()).naiveProviderBytes);
    const naive = await stack("naive", { "bench:count": "1", "bench:url": `${emulator.url}/__emulator/metrics` });
    const naiveUp = await naive.up([], { allowFailure: true });
    const naiveOutcome = naiveUp.code === 0 ? "deploys" : `fails: ${/error: (.*)/.exec(naiveUp.stdout)?.[1] ?? "see its output"}`;
    log(`naive provider: ${naiveProviderBytes} bytes of __provider; ${naiveOutcome}`);

    // 6. Scale: `pulumi up` of N Subnets and of N floor resources (same task duration) at
    // each size, one after the other; the provider's peak RSS at each.
    const scale: ScaleRow[] = [];
    for (const count of scaleCounts) {
      const s = await stack("cims", cimsConfig(count));
      const f = await stack("floor", { "bench:count": String(count), "bench:taskMs": String(taskMs) });
      let upMs = 0;
      let floorUpMs = 0;
      const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up([], LONG))));
      await peakProviderRss(f, async () => (floorUpMs = await timed(() => f.up([], LONG))));
      scale.push({ count, upMs, floorUpMs, peakRssBytes: rss, upMsPerResource: upMs / count });
      log(`scale ${count}: up ${upMs.toFixed(0)} ms, floor ${floorUpMs.toFixed(0)} ms, provider peak RSS ${mb(rss)} MB`);
      await clear(s);
      await clear(f);
    }

    // 6b. The plugin face at scale (pluginScaleRows).
    const pluginScale = await pluginScaleRows(rounds);

    // 6c. A Python program against the TypeScript one (languageRows).
    const languages = await languageRows(rounds);

    // 7. Refresh: N Subnets across 2 scopes read with coalescing on (ours) and off (a GET
    // each, the same code otherwise), and N floor resources whose read() makes no request;
    // interleaved rounds, medians. At RATE_LIMITED_COUNT also under a rate limit.
    const refresh: RefreshRow[] = [];
    let rateLimited: RateLimitedRow[] = [];
    for (const count of scaleCounts) {
      emulator.engine.durationMs = 0; // deploying is not measured here
      const s = await stack("cims", { ...cimsConfig(count), "bench:scopes": "2" });
      await s.up([], LONG);
      const f = await stack("floor", { "bench:count": String(count), "bench:taskMs": "0" });
      await f.up([], LONG);
      // The same floor with each resource carrying a Subnet's properties (the engine's and
      // the gRPC layer's work grows with the properties a resource holds).
      const like = await subnetState(s);
      const fp = await stack("floor", { "bench:count": String(count), "bench:taskMs": "0", "bench:like": JSON.stringify(like) });
      await fp.up([], LONG);
      emulator.engine.durationMs = taskMs;
      const runs: Record<RefreshMode, { ms: number[]; requests: number[]; listsPerScope: number[] }> = {
        cims: { ms: [], requests: [], listsPerScope: [] },
        off: { ms: [], requests: [], listsPerScope: [] },
        floor: { ms: [], requests: [], listsPerScope: [] },
        floorLike: { ms: [], requests: [], listsPerScope: [] },
      };
      const modes: RefreshMode[] = ["cims", "off", "floor", "floorLike"];
      const stackOf = { cims: s, off: s, floor: f, floorLike: fp };
      for (let round = 0; round < rounds; round++) {
        for (const mode of [...modes.slice(round % modes.length), ...modes.slice(0, round % modes.length)]) {
          const measured = await refreshOnce(emulator, stackOf[mode], mode);
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
      refresh.push({ count, cims: row("cims"), off: row("off"), floor: row("floor"), floorLike: row("floorLike") });
      log(
        `refresh ${count}: ours ${row("cims").ms.toFixed(0)} ms / ${row("cims").requests} requests, ` +
          `off ${row("off").ms.toFixed(0)} ms / ${row("off").requests}, floor ${row("floor").ms.toFixed(0)} ms, ` +
          `floor with properties ${row("floorLike").ms.toFixed(0)} ms`,
      );
      if (count === RATE_LIMITED_COUNT) rateLimited = await underRateLimit(emulator, s, count);
      await clear(s);
      await clear(f);
      await clear(fp);
    }

    const hints = await hintsRows();
    const probe = await probeRows();

    // 3. Task-wait lag, in process: the same tasks watched by our waiter and by fixed polling.
    const samples = await measureTaskLag(emulator, apiKey, NETWORK_ID, lagDurations, lagSamples);
    const waiters: Waiter[] = ["adaptive", "hints", "fixed1s", "fixed3s"];
    const lag = lagDurations.map((d) => {
      const row = (w: Waiter) => {
        const of = samples.filter((s) => s.durationMs === d && s.waiter === w);
        return { medianLagMs: median(of.map((s) => s.lagMs)), medianGets: median(of.map((s) => s.gets)) };
      };
      return { durationMs: d, targetLagMs: Math.max(150, 0.05 * d), ...Object.fromEntries(waiters.map((w) => [w, row(w)])) } as {
        durationMs: number;
        targetLagMs: number;
      } & Record<Waiter, { medianLagMs: number; medianGets: number }>;
    });

    const results: Results = {
      machine: machine(),
      params: { resources: N, rounds, taskMs, engineParallelism: ENGINE_PARALLELISM, lagSamplesPerDuration: lagSamples },
      stateSize: {
        resources: sizes!.resources,
        providerBytesMax: Math.max(...sizes!.providerBytes),
        providerTextsDistinct: new Set(sizes!.providerBytes).size,
        stateBytesPerResource: Math.round(sizes!.stateBytesPerResource),
        floorProviderBytes: floorSizes!.providerBytes[0],
        naiveProviderBytes,
        naiveOutcome,
      },
      overhead: {
        previewMs: { cims: times.cims.preview, plugin: times.plugin.preview, floor: times.floor.preview },
        upMs: { cims: times.cims.up, plugin: times.plugin.up, floor: times.floor.up },
        previewRatio: median(times.cims.preview) / median(times.floor.preview),
        upRatio: median(times.cims.up) / median(times.floor.up),
      },
      lag,
      connections: { opened: connections, peakOpen, requests, engineParallelism: ENGINE_PARALLELISM },
      memory: { providerPeakRssBytes: peakRss, floorProviderPeakRssBytes: floorPeakRss, pluginPeakRssBytes: pluginPeakRss },
      scale,
      pluginScale,
      languages,
      refresh,
      rateLimited,
      benchSeconds: Math.round((Date.now() - started) / 1000),
    };
    // The hints and the probe have files of their own (their experiments also run alone);
    // one file per table keeps a single source for each.
    await writeJson("results.json", results);
    await writeJson("hints.json", { machine: results.machine, rows: hints, verdicts: verdicts(hints) });
    await writeJson("probe-cost.json", { machine: results.machine, rows: probe });
    await writeFile(benchFile("task-lag.svg"), lagChart(samples));
    process.stdout.write(await renderResults());
  } finally {
    for (const s of stacks) await s.dispose();
    await closeAllPools();
    await emulator.close();
  }
}

type ScaleRow = { count: number; upMs: number; floorUpMs: number; peakRssBytes: number; upMsPerResource: number };
/** `rounds`: how many runs of preview and of refresh each median is of (absent: one run, as runs before medians were kept). */
type ScaleFace = "plugin" | "floor" | "floorLike";
/** `floorLike`: the floor holding a Subnet's inputs and outputs. */
type PluginScaleRow = { count: number; rounds?: number } & Record<"previewMs" | "upMs" | "refreshMs", Record<ScaleFace, number>>;
type RefreshMode = "cims" | "off" | "floor" | "floorLike";
type RefreshCell = { ms: number; requests: number; listsPerScope: number };
type RefreshRow = { count: number } & Record<RefreshMode, RefreshCell>;
/** `pulumi up` of `count` Subnets on the plugin face, a Python program against a TypeScript one: one time per round. */
type Languages = { count: number; upMs: { typescript: number[]; python: number[] } };
type RateLimitedRow = { mode: "cims" | "off"; ms: number; ok: boolean; failedResources: number; requests: number; refused: number };

/** The inputs and outputs one Subnet of the stack recorded (without `__provider`), for the floor to hold. */
async function subnetState(s: TestStack, type = Subnet): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const resources = (await s.exportState()).deployment.resources ?? [];
  const subnet = resources.find((r) => r.type === type);
  if (!subnet) throw new Error(`the stack ${s.name} holds no ${type}`);
  const { __provider: _i, ...inputs } = (subnet.inputs ?? {}) as Record<string, unknown>;
  const { __provider: _o, ...outputs } = (subnet.outputs ?? {}) as Record<string, unknown>;
  return { inputs, outputs };
}

/** One `pulumi refresh`: wall time, requests the emulator answered, the most list requests of one scope. */
async function refreshOnce(emulator: RunningEmulator, s: TestStack, mode: RefreshMode): Promise<RefreshCell> {
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

/** Refresh of the deployed stack with the emulator allowing RATE_LIMIT_PER_SECOND requests per second. */
async function underRateLimit(emulator: RunningEmulator, s: TestStack, count: number): Promise<RateLimitedRow[]> {
  const rows: RateLimitedRow[] = [];
  for (const mode of ["cims", "off"] as const) {
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
    log(`rate-limited refresh ${count} (${mode}): ${ms.toFixed(0)} ms, exit ${result.code}, ${refused} refused with 429`);
  }
  return rows;
}

type Machine = { cpus: number; cpuModel?: string; memoryGiB: number; node: string; pulumi: string; date: string };
type Results = {
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
  };
  overhead: { previewMs: Record<string, number[]>; upMs: Record<string, number[]>; previewRatio: number; upRatio: number };
  lag: Array<{ durationMs: number; targetLagMs: number } & Record<Waiter, { medianLagMs: number; medianGets: number }>>;
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
type FacesRun = {
  machine?: Machine;
  previewMs: Record<"cims" | "plugin" | "floor", number[]>;
  upMs: Record<"cims" | "plugin" | "floor", number[]>;
  providerBytesMax: number;
  previewRatio: number;
  upRatio: number;
  pluginUpRatio: number;
  peakRssBytes?: { cims: number; plugin: number };
  resources?: number;
};
type HintsRun = { machine?: Machine; rows: HintsRow[] };
type ProbeRun = { machine?: Machine; rows: ProbeRow[]; alone?: { coldMs: number[]; warmMs: number[] } };

function markdown(r: Results): string {
  const ok = (b: boolean) => (b ? "met" : "**not met**");
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const m = r.machine;
  const lines = [
    `Measured ${m.date.slice(0, 10)} on ${m.cpus} cores (${m.cpuModel ?? "?"}), ${m.memoryGiB} GiB, Node ${m.node}, Pulumi ${m.pulumi}; ${r.params.resources} resources, task duration ${r.params.taskMs} ms, ${r.params.rounds} interleaved rounds; the bench took ${r.benchSeconds} s.`,
    "",
    "| what | measured | target | |",
    "|---|---|---|---|",
    `| \`__provider\` per Subnet | ${r.stateSize.providerBytesMax} B (${r.stateSize.providerTextsDistinct} distinct size) | <= 1024 B | ${ok(r.stateSize.providerBytesMax <= 1024)} |`,
    `| whole state per Subnet | ${r.stateSize.stateBytesPerResource} B | | |`,
    `| \`__provider\` of a naive provider (undici at top level) | ${r.stateSize.naiveProviderBytes} B; deploying it ${r.stateSize.naiveOutcome} | contrast | |`,
    `| \`__provider\` of the no-op floor resource | ${r.stateSize.floorProviderBytes} B | contrast | |`,
    `| \`pulumi preview\`, ours / floor (median) | ${s(median(r.overhead.previewMs.cims))} s / ${s(median(r.overhead.previewMs.floor))} s = ${r.overhead.previewRatio.toFixed(2)}x | <= 1.15x | ${ok(r.overhead.previewRatio <= 1.15)} |`,
    `| \`pulumi up\`, ours / floor (median) | ${s(median(r.overhead.upMs.cims))} s / ${s(median(r.overhead.upMs.floor))} s = ${r.overhead.upRatio.toFixed(2)}x | <= 1.15x | ${ok(r.overhead.upRatio <= 1.15)} |`,
    ...(r.overhead.upMs.plugin && r.memory.pluginPeakRssBytes !== undefined
      ? facesMarkdown({
          upMs: r.overhead.upMs,
          pluginPeakRss: r.memory.pluginPeakRssBytes,
          peakRss: r.memory.providerPeakRssBytes,
          resources: r.params.resources,
        }).slice(2)
      : []),
    `| connections open at once (peak) in one up | ${r.connections.peakOpen} | <= ${r.connections.engineParallelism} (engine parallelism) | ${ok(r.connections.peakOpen <= r.connections.engineParallelism)} |`,
    `| connections opened / requests in one up | ${r.connections.opened} / ${r.connections.requests} (idle sockets close after the server's 5 s keep-alive) | not one per request | ${ok(r.connections.opened * 10 <= r.connections.requests)} |`,
    `| dynamic-provider peak RSS, ${r.params.resources}-resource up: ours / floor | ${mb(r.memory.providerPeakRssBytes)} MB / ${mb(r.memory.floorProviderPeakRssBytes)} MB | | |`,
    "",
    "Task-wait lag (median time from the emulator marking a task FINISHED to the waiter returning) and task GETs, the same tasks (nominal duration +/-10%) watched by all four waiters; ours without and with duration hints (learned from a warm-up task and the earlier samples of the same type):",
    "",
    "| task | ours, no hints: lag, GETs | ours, hints: lag, GETs | fixed 1 s: lag, GETs | fixed 3 s: lag, GETs | lag target (no hints) | lag | GETs <= fixed 1 s | hints beat no hints (lag lower, GETs not more) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...r.lag.map((l) => {
      const cell = (w: Waiter) => `${Math.round(l[w].medianLagMs)} ms, ${l[w].medianGets}`;
      const hintsWin = l.hints.medianLagMs < l.adaptive.medianLagMs && l.hints.medianGets <= l.adaptive.medianGets;
      return `| ${l.durationMs / 1000} s | ${cell("adaptive")} | ${cell("hints")} | ${cell("fixed1s")} | ${cell("fixed3s")} | ${Math.round(l.targetLagMs)} ms | ${ok(l.adaptive.medianLagMs <= l.targetLagMs)} | ${ok(l.adaptive.medianGets <= l.fixed1s.medianGets)} | ${hintsWin ? "yes" : "**no**"} |`;
    }),
    "",
    "Scale: `pulumi up` of N Subnets against N floor resources (no-op, sleeping the same task duration), the engine's own cost:",
    "",
    "| resources | up: ours | up: floor | ours / floor (target <= 1.10x) | per resource | provider peak RSS |",
    "|---|---|---|---|---|---|",
    ...r.scale.map(
      (x) =>
        `| ${x.count} | ${s(x.upMs)} s | ${s(x.floorUpMs)} s | ${(x.upMs / x.floorUpMs).toFixed(2)}x ${ok(x.upMs <= 1.1 * x.floorUpMs)} | ${x.upMsPerResource.toFixed(0)} ms | ${mb(x.peakRssBytes)} MB |`,
    ),
    ...rssGrowth(r.scale, ok),
    ...pluginScaleMarkdown(r.pluginScale, ok),
    ...languagesMarkdown(r.languages),
    "",
    "Refresh: `pulumi refresh` of N Subnets across 2 scopes: ours (reads coalesced into list requests), the same code with `CIMS_COALESCE_READS=false` (a GET each), and N floor resources whose read() sends nothing, as they are and carrying a Subnet's properties (the same data for the engine to move); medians of interleaved rounds:",
    "",
    "| subnets | ours: requests (most lists of a scope), time | coalescing off: requests, time | floor: time | floor with a Subnet's properties: time | ours / floor | ours / floor with properties | requests <= 2 per scope per 1,000 |",
    "|---|---|---|---|---|---|---|---|",
    ...r.refresh.map((x) => {
      const ratio = x.cims.ms / x.floor.ms;
      const padded = x.cims.ms / x.floorLike.ms;
      const target = (v: number) => (x.count === RATE_LIMITED_COUNT ? ` (<= 1.10x: ${ok(v <= 1.1)})` : "");
      return `| ${x.count} | ${x.cims.requests} (${x.cims.listsPerScope}), ${s(x.cims.ms)} s | ${x.off.requests}, ${s(x.off.ms)} s | ${s(x.floor.ms)} s | ${s(x.floorLike.ms)} s | ${ratio.toFixed(2)}x${target(ratio)} | ${padded.toFixed(2)}x${target(padded)} | ${ok(x.cims.listsPerScope <= 2 * Math.ceil(x.count / 2 / 1000))} |`;
    }),
    "",
    `Refresh of ${RATE_LIMITED_COUNT} Subnets while the emulator allows ${RATE_LIMIT_PER_SECOND} requests per second per key (429 with Retry-After beyond):`,
    "",
    "| reads | time | exit | failed resources | requests (429s) |",
    "|---|---|---|---|---|",
    ...r.rateLimited.map(
      (x) =>
        `| ${x.mode === "cims" ? "ours (coalesced)" : "coalescing off"} | ${s(x.ms)} s | ${x.ok ? "0" : "non-zero"} | ${x.failedResources} | ${x.requests} (${x.refused}) |`,
    ),
    "",
  ];
  return lines.join("\n");
}

const met = (b: boolean) => (b ? "met" : "**not met**");

/** The plugin face at scale against the floor: one run of each step per size. */
/** How many runs the plugin-scale figures are of. */
function runsSaid(rows: PluginScaleRow[]): string {
  const rounds = rows[0].rounds ?? 1;
  return rounds > 1 ? `preview and refresh: medians of ${rounds} runs; up: one run` : "one run of each";
}

function pluginScaleMarkdown(rows: PluginScaleRow[] | undefined, ok: (b: boolean) => string): string[] {
  if (!rows?.length) return [];
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const ratio = (ours: number, floor: number) => `${s(ours)} s / ${s(floor)} s = ${(ours / floor).toFixed(2)}x`;
  const cell = (x: { plugin: number; floor: number; floorLike: number }, target?: number) =>
    ratio(x.plugin, x.floorLike) +
    (target ? ` (<= ${target.toFixed(2)}x: ${ok(x.plugin / x.floorLike <= target)})` : "") +
    `; bare floor: ${ratio(x.plugin, x.floor)}`;
  return [
    "",
    `The plugin face at scale: \`pulumi preview\`, \`up\` and \`refresh\` of N Subnets through \`pulumi-resource-cims\` against N floor resources holding a Subnet's recorded inputs and outputs (the same data for the engine to move: the targets are judged against it), and against the bare floor (3 values per resource against a Subnet's 30-odd); the first of the three rotating; ${runsSaid(rows)}:`,
    "",
    "| subnets | preview | up | refresh |",
    "|---|---|---|---|",
    ...rows.map((x) => `| ${x.count} | ${cell(x.previewMs)} | ${cell(x.upMs, 1.05)} | ${cell(x.refreshMs, 1.1)} |`),
  ];
}

/** A Python program's `up` against the TypeScript one's: medians of the interleaved rounds, and their ratio. */
function languagesMarkdown(l: Languages | undefined): string[] {
  if (!l) return [];
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const [py, ts] = [median(l.upMs.python), median(l.upMs.typescript)];
  return [
    "",
    `A Python program (the \`pulumi_cims\` SDK) against the TypeScript one, \`pulumi up\` of ${l.count} Subnets through the plugin face, the TypeScript program type-checked as it runs as a user's is (${l.upMs.python.length} interleaved rounds, medians): Python ${s(py)} s, TypeScript ${s(ts)} s, Python / TypeScript ${(py / ts).toFixed(2)}x.`,
  ];
}

/** Provider RSS growth from the smallest to the largest size (target <= 50 MB from 10 to 1,000). */
function rssGrowth(scale: ScaleRow[], ok: (b: boolean) => string): string[] {
  if (scale.length < 2) return [];
  const [first, last] = [scale[0], scale[scale.length - 1]];
  const growth = last.peakRssBytes - first.peakRssBytes;
  const target = first.count === 10 && last.count === 1000 ? ` (target <= 50 MB: ${ok(growth <= 50 * 2 ** 20)})` : "";
  return ["", `Provider peak RSS grows ${mb(growth)} MB from ${first.count} to ${last.count} resources${target}.`];
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

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(benchFile(file), "utf8")) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** bench/results.md from every JSON file of the bench: one section per file, each saying when it was measured. */
async function renderResults(): Promise<string> {
  const results = await readJson<Results>("results.json");
  const facesRun = await readJson<FacesRun>("faces.json");
  const hintsRun = await readJson<HintsRun>("hints.json");
  const probeRun = await readJson<ProbeRun>("probe-cost.json");
  const pluginScaleRun = await readJson<{ machine: Machine; rows: PluginScaleRow[] }>("plugin-scale.json");
  const languagesRun = await readJson<Languages & { machine: Machine }>("languages.json");
  const parallelRun = await readJson<{ machine: Machine; taskMs?: number; rows: ParallelRow[] }>("parallel.json");
  const lines = [
    "# Bench results",
    "",
    "Written by `bench/run.ts` from the JSON files beside this one (`npm run bench` measures and writes both;",
    "`npm run bench:render` rebuilds this file from the JSON alone). Do not edit it by hand. What each run does",
    "and why: [docs/performance.md](../docs/performance.md).",
    "",
  ];
  if (results) lines.push("## Full run (`results.json`)", "", markdown(results), "", "![median task-wait lag](task-lag.svg)", "");
  if (facesRun) {
    lines.push(
      "## Faces: dynamic, plugin, floor (`faces.json`)",
      "",
      `\`npm run bench -- --only faces\`, ${measuredOn("faces.json", facesRun.machine)}.`,
      "",
    );
    lines.push(...facesRunMarkdown(facesRun), "");
  }
  if (pluginScaleRun) {
    lines.push(
      "## The plugin face at scale (`plugin-scale.json`)",
      "",
      `\`npm run bench -- --only plugin-scale\`, ${measuredOn("plugin-scale.json", pluginScaleRun.machine)}.`,
      ...pluginScaleMarkdown(pluginScaleRun.rows, met),
      "",
    );
  }
  if (languagesRun) {
    lines.push(
      "## A Python program against the TypeScript one (`languages.json`)",
      "",
      `\`npm run bench -- --only languages\`, ${measuredOn("languages.json", languagesRun.machine)}.`,
      ...languagesMarkdown(languagesRun),
      "",
    );
  }
  if (hintsRun) {
    lines.push(
      "## Duration hints (`hints.json`)",
      "",
      `\`npm run bench -- --only hints\`, ${measuredOn("hints.json", hintsRun.machine)}.`,
      "",
    );
    lines.push(...hintsMarkdown(hintsRun.rows));
  }
  if (probeRun) {
    lines.push(
      "## Proving the key at preview (`probe-cost.json`)",
      "",
      `\`npm run bench -- --only probe\`, ${measuredOn("probe-cost.json", probeRun.machine)}.`,
      "",
    );
    lines.push(...probeMarkdown(probeRun.rows, probeRun.alone));
  }
  if (parallelRun) {
    lines.push(
      "",
      "## Engine parallelism, with and without the rate limit (`parallel.json`)",
      "",
      `\`npm run bench -- --only parallel\`, ${measuredOn("parallel.json", parallelRun.machine)}.`,
      ...parallelMarkdown(parallelRun.rows, parallelRun.taskMs),
    );
  }
  const md = lines.join("\n").replace(/\n+$/, "\n");
  await writeFile(benchFile("results.md"), md);
  return md;
}

if (flags["render-only"]) {
  renderResults().then(
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

/**
 * The plugin face's row: `pulumi up` of the same N Subnets through `pulumi-resource-cims`
 * (one long-lived provider process for the stack) against the dynamic face and the floor.
 */
function facesMarkdown(f: { upMs: Record<string, number[]>; peakRss: number; pluginPeakRss: number; resources: number }): string[] {
  const up = (face: string): number => median(f.upMs[face]);
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return [
    "| what | measured | target | |",
    "|---|---|---|---|",
    `| \`pulumi up\`, plugin face / dynamic face / floor (median) | ${s(up("plugin"))} s / ${s(up("cims"))} s / ${s(up("floor"))} s: plugin / floor ${(up("plugin") / up("floor")).toFixed(2)}x, plugin / dynamic ${(up("plugin") / up("cims")).toFixed(2)}x | | |`,
    `| provider peak RSS, ${f.resources}-resource up: plugin / dynamic | ${mb(f.pluginPeakRss)} MB / ${mb(f.peakRss)} MB | | |`,
  ];
}

/** The `--only faces` rounds: each face's median preview and up against the floor. */
function facesRunMarkdown(f: FacesRun): string[] {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const faces = ["cims", "plugin", "floor"] as const;
  const row = (what: string, ms: Record<(typeof faces)[number], number[]>) =>
    `| ${what} | ${faces.map((face) => `${s(median(ms[face]))} s`).join(" | ")} |`;
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
    `| \`__provider\` per Subnet | ${f.providerBytesMax} B | <= 1024 B | ${f.providerBytesMax <= 1024 ? "met" : "**not met**"} |`,
    `| \`pulumi preview\`, dynamic face / floor | ${f.previewRatio.toFixed(2)}x | <= 1.15x | ${f.previewRatio <= 1.15 ? "met" : "**not met**"} |`,
    `| \`pulumi up\`, dynamic face / floor | ${f.upRatio.toFixed(2)}x | <= 1.15x | ${f.upRatio <= 1.15 ? "met" : "**not met**"} |`,
    `| \`pulumi up\`, plugin face / floor | ${f.pluginUpRatio.toFixed(2)}x | | |`,
    `| \`pulumi up\`, plugin face / dynamic face | ${(median(f.upMs.plugin) / median(f.upMs.cims)).toFixed(2)}x | | |`,
  ];
}
