// `npm run bench`: what the provider costs, measured against the engine's own floor, in one
// run on this machine. Writes bench/results.json, bench/results.md and bench/task-lag.svg.
// Flags (node:util parseArgs): --rounds N (interleaved preview/up rounds, default 3),
// --task-ms N (task duration for the stack runs, default 2000), --quick (smaller, for a
// smoke run: 2 rounds, 10 resources, scale 5/10, lag 0.3 s and 2 s only).
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../provider/client";
import { REPO_ROOT, type TestStack } from "../tests/e2e/harness";
import { lagChart, median } from "./chart";
import { benchStack, peakProviderRss, stateSizes, timed, type Mode } from "./stack-runs";
import { measureTaskLag, type Waiter } from "./task-lag";

const SUBNET = "pulumi-nodejs:dynamic/cims:Subnet";
const FLOOR = "pulumi-nodejs:dynamic/bench:Floor";
const NETWORK_ID = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01"; // examples/emulator-seed.json
const ENGINE_PARALLELISM = 8; // `pulumi up --help`: --parallel default on this machine

const { values: flags } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    "task-ms": { type: "string", default: "2000" },
    quick: { type: "boolean", default: false },
  },
});
const quick = flags.quick;
const rounds = quick ? 2 : Number(flags.rounds);
const taskMs = Number(flags["task-ms"]);
const N = quick ? 10 : 50;
const scaleCounts = quick ? [5, 10] : [10, 50, 200];
const lagDurations = quick ? [300, 2000] : [300, 2000, 20_000];
const lagSamples = quick ? 3 : 15;

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** Destroys run with instant tasks: they are not measured, and waiting for them would double the run. */
async function destroyFast(emulator: RunningEmulator, stack: TestStack): Promise<void> {
  const saved = emulator.engine.durationMs;
  emulator.engine.durationMs = 0;
  try {
    await stack.destroy();
  } finally {
    emulator.engine.durationMs = saved;
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const apiKey = `bench-${randomBytes(8).toString("hex")}`;
  const emulator = await startEmulator({
    apiKey,
    seed: path.join(REPO_ROOT, "examples/emulator-seed.json"),
    taskDurationMs: taskMs,
    log: () => {},
  });
  const cimsConfig = (count: number) => ({
    "bench:count": String(count),
    "bench:networkId": NETWORK_ID,
    "cims:apiUrl": emulator.url,
    "cims:projectId": "1",
    "cims:regionId": "1",
  });
  const stacks: TestStack[] = [];
  const stack = async (mode: Mode, config: Record<string, string>) => {
    const s = await benchStack(mode, config, mode === "cims" ? { "cims:apiKey": apiKey } : {});
    stacks.push(s);
    return s;
  };
  try {
    // 1-5. Interleaved rounds: ours and the floor, preview then up, median of the rounds.
    const ours = await stack("cims", cimsConfig(N));
    const floor = await stack("floor", { "bench:count": String(N), "bench:taskMs": String(taskMs) });
    const times: Record<"cims" | "floor", { preview: number[]; up: number[] }> = {
      cims: { preview: [], up: [] },
      floor: { preview: [], up: [] },
    };
    let sizes,
      floorSizes,
      connections = 0,
      peakOpen = 0,
      requests = 0,
      peakRss = 0,
      floorPeakRss = 0;
    for (let round = 0; round < rounds; round++) {
      const order: Array<"cims" | "floor"> = round % 2 === 0 ? ["cims", "floor"] : ["floor", "cims"];
      for (const which of order) {
        const s = which === "cims" ? ours : floor;
        times[which].preview.push(await timed(() => s.preview()));
        if (which === "cims") emulator.metrics.reset();
        let upMs = 0;
        const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up())));
        times[which].up.push(upMs);
        log(`round ${round + 1} ${which}: preview ${times[which].preview.at(-1)!.toFixed(0)} ms, up ${upMs.toFixed(0)} ms`);
        if (which === "cims" && round === 0) {
          const m = emulator.metrics.snapshot();
          connections = m.connections;
          peakOpen = m.peak_open_connections;
          requests = m.total_requests;
          peakRss = rss;
          sizes = await stateSizes(s, SUBNET);
        }
        if (which === "floor" && round === 0) {
          floorSizes = await stateSizes(s, FLOOR);
          floorPeakRss = rss;
        }
        await (which === "cims" ? destroyFast(emulator, s) : s.destroy());
      }
    }

    // The naive provider, for contrast: the size of its serialized __provider (the engine's
    // serializer, in a program), and whether it deploys at all.
    const naiveSize = await stack("naive-size", { "bench:count": "0" });
    await naiveSize.up();
    const naiveProviderBytes = Number((await naiveSize.outputs()).naiveProviderBytes);
    const naive = await stack("naive", { "bench:count": "1", "bench:url": `${emulator.url}/__emulator/metrics` });
    const naiveUp = await naive.up([], { allowFailure: true });
    const naiveOutcome = naiveUp.code === 0 ? "deploys" : `fails: ${/error: (.*)/.exec(naiveUp.stdout)?.[1] ?? "see its output"}`;
    log(`naive provider: ${naiveProviderBytes} bytes of __provider; ${naiveOutcome}`);

    // 6. Scale.
    const scale: Array<{ count: number; upMs: number; peakRssBytes: number; upMsPerResource: number }> = [];
    for (const count of scaleCounts) {
      const s = await stack("cims", cimsConfig(count));
      let upMs = 0;
      const rss = await peakProviderRss(s, async () => (upMs = await timed(() => s.up())));
      scale.push({ count, upMs, peakRssBytes: rss, upMsPerResource: upMs / count });
      log(`scale ${count}: up ${upMs.toFixed(0)} ms, provider peak RSS ${mb(rss)} MB`);
      await destroyFast(emulator, s);
    }

    // 3. Task-wait lag, in process: the same tasks watched by our waiter and by fixed polling.
    const samples = await measureTaskLag(emulator, apiKey, NETWORK_ID, lagDurations, lagSamples);
    const waiters: Waiter[] = ["adaptive", "fixed1s", "fixed3s"];
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

    const results = {
      machine: {
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model,
        memoryGiB: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        pulumi: "v3.248.0",
        date: new Date().toISOString(),
      },
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
        previewMs: { cims: times.cims.preview, floor: times.floor.preview },
        upMs: { cims: times.cims.up, floor: times.floor.up },
        previewRatio: median(times.cims.preview) / median(times.floor.preview),
        upRatio: median(times.cims.up) / median(times.floor.up),
      },
      lag,
      connections: { opened: connections, peakOpen, requests, engineParallelism: ENGINE_PARALLELISM },
      memory: { providerPeakRssBytes: peakRss, floorProviderPeakRssBytes: floorPeakRss },
      scale,
      benchSeconds: 0,
    };
    results.benchSeconds = Math.round((Date.now() - started) / 1000);
    const out = (f: string) => path.join(REPO_ROOT, "bench", f);
    await writeFile(out("results.json"), JSON.stringify(results, null, 2) + "\n");
    const md = markdown(results);
    await writeFile(out("results.md"), md);
    await writeFile(out("task-lag.svg"), lagChart(samples));
    process.stdout.write(md);
  } finally {
    for (const s of stacks) await s.dispose();
    await closeAllPools();
    await emulator.close();
  }
}

type Results = {
  machine: { cpus: number; cpuModel?: string; memoryGiB: number; node: string; pulumi: string; date: string };
  params: { resources: number; rounds: number; taskMs: number };
  stateSize: {
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
  memory: { providerPeakRssBytes: number; floorProviderPeakRssBytes: number };
  scale: Array<{ count: number; upMs: number; peakRssBytes: number; upMsPerResource: number }>;
  benchSeconds: number;
};

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
    `| connections open at once (peak) in one up | ${r.connections.peakOpen} | <= ${r.connections.engineParallelism} (engine parallelism) | ${ok(r.connections.peakOpen <= r.connections.engineParallelism)} |`,
    `| connections opened / requests in one up | ${r.connections.opened} / ${r.connections.requests} (idle sockets close after the server's 5 s keep-alive) | not one per request | ${ok(r.connections.opened * 10 <= r.connections.requests)} |`,
    `| dynamic-provider peak RSS, ${r.params.resources}-resource up: ours / floor | ${mb(r.memory.providerPeakRssBytes)} MB / ${mb(r.memory.floorProviderPeakRssBytes)} MB | | |`,
    "",
    "Task-wait lag (median time from the emulator marking a task FINISHED to the waiter returning) and task GETs, the same tasks (nominal duration +/-10%) watched by all three waiters; ours here without duration hints:",
    "",
    "| task | ours: lag, GETs | fixed 1 s: lag, GETs | fixed 3 s: lag, GETs | lag target | lag | GETs <= fixed 1 s |",
    "|---|---|---|---|---|---|---|",
    ...r.lag.map((l) => {
      const cell = (w: Waiter) => `${Math.round(l[w].medianLagMs)} ms, ${l[w].medianGets}`;
      return `| ${l.durationMs / 1000} s | ${cell("adaptive")} | ${cell("fixed1s")} | ${cell("fixed3s")} | ${Math.round(l.targetLagMs)} ms | ${ok(l.adaptive.medianLagMs <= l.targetLagMs)} | ${ok(l.adaptive.medianGets <= l.fixed1s.medianGets)} |`;
    }),
    "",
    "Scale (`pulumi up` of N Subnets, task duration as above):",
    "",
    "| resources | up | per resource | provider peak RSS |",
    "|---|---|---|---|",
    ...r.scale.map((x) => `| ${x.count} | ${s(x.upMs)} s | ${x.upMsPerResource.toFixed(0)} ms | ${mb(x.peakRssBytes)} MB |`),
    "",
  ];
  return lines.join("\n");
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
