// What proving the key costs a preview: `pulumi preview` of an unchanged stack of N Subnets
// with the probe (as shipped) and without (CIMS_SKIP_CREDENTIALS_VALIDATION=true), on each
// face, interleaved rounds on one emulator; medians, the spread of each side, and the probe
// requests the emulator saw per preview. The probe is one GET, but in a preview that sends no
// other request it also loads the HTTP client in the provider process.
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import type { RunningEmulator } from "pulumi-cims/emulator";
import { REPO_ROOT, type TestStack } from "../../tests/support/harness";
import type { BenchContext } from "../context";
import type { ProbeAlone, ProbeFace, ProbeMode, ProbeRow } from "../report";
import { timed } from "../stack-runs";

/**
 * The experiment at the run's size: N subnets, both faces, at least 5 rounds (one with --smoke,
 * unwarmed, on the plugin face alone: each face runs the same lines and makes a row of the same
 * table, so a second face's two previews run nothing more).
 */
export function probeRows(ctx: BenchContext): Promise<ProbeRow[]> {
  const { smoke, N, rounds } = ctx.params;
  return probeExperiment({
    emulator: ctx.emulator,
    count: N,
    rounds: smoke ? 1 : Math.max(5, rounds),
    faces: smoke ? ["plugin"] : ["cims", "plugin"],
    stack: (face) => ctx.stack(face, ctx.cimsConfig(N)),
    destroy: ctx.clear,
    log: ctx.log,
    warm: !smoke,
    deploy: !smoke,
  });
}

/**
 * The probe alone, in a fresh node process each round (as a provider process meets it): its
 * wall time from the call to the proven key, cold (the HTTP client loaded by it, as in a
 * preview that sends nothing else) and warm (a second probe in the same process).
 */
export async function probeAlone(url: string, apiKey: string, rounds: number): Promise<ProbeAlone> {
  const script = `
const { proveCredentials } = require(${JSON.stringify(path.join(REPO_ROOT, "dist/provider/client/credentials.js"))});
const o = { apiUrl: new URL(process.argv[1]), apiKey: process.env.BENCH_KEY, projectId: 1, maxRetries: 5, connectTimeoutMs: 5000, requestTimeoutMs: 120000, taskPath: "/cloud/v1/tasks/{task_id}" };
(async () => {
  let t = process.hrtime.bigint();
  await proveCredentials(o);
  const cold = Number(process.hrtime.bigint() - t) / 1e6;
  t = process.hrtime.bigint();
  await proveCredentials(o);
  const warm = Number(process.hrtime.bigint() - t) / 1e6;
  process.stdout.write(JSON.stringify({ cold, warm }));
  process.exit(0);
})();`;
  const out = { coldMs: [] as number[], warmMs: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script, url], { env: { ...process.env, BENCH_KEY: apiKey } });
    const { cold, warm } = JSON.parse(stdout) as { cold: number; warm: number };
    out.coldMs.push(cold);
    out.warmMs.push(warm);
  }
  return out;
}

export async function probeExperiment(opts: {
  emulator: RunningEmulator;
  count: number;
  rounds: number;
  faces: ProbeFace[];
  stack: (face: ProbeFace) => Promise<TestStack>;
  /** The faces share the emulator and its network: each face's subnets go before the next face's up. */
  destroy: (stack: TestStack) => Promise<void>;
  log: (line: string) => void;
  /** false: no warming preview before the rounds (a smoke run, whose figures mean nothing). */
  warm?: boolean;
  /**
   * false: the rounds preview the stack's creates, with no up before them and nothing to
   * destroy after (a smoke run: a preview of creates proves the key as an unchanged stack's
   * does, so every line of the row runs, and each face's up cost the smoke an engine command
   * for a figure that means nothing there).
   */
  deploy?: boolean;
}): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  const deploy = opts.deploy !== false;
  for (const face of opts.faces) {
    const s = await opts.stack(face);
    if (deploy) await s.up();
    if (deploy && opts.warm !== false) await s.preview(); // warm: the first preview after an up compiles nothing new, but fills caches
    const row: ProbeRow = { face, count: opts.count, previewMs: { probe: [], skip: [] }, probesPerPreview: { probe: [], skip: [] } };
    for (let round = 0; round < opts.rounds; round++) {
      const order: ProbeMode[] = round % 2 === 0 ? ["probe", "skip"] : ["skip", "probe"];
      for (const mode of order) {
        s.env.CIMS_SKIP_CREDENTIALS_VALIDATION = mode === "skip" ? "true" : "false";
        opts.emulator.metrics.reset();
        const ms = await timed(() => s.preview());
        row.previewMs[mode].push(ms);
        row.probesPerPreview[mode].push(probes(opts.emulator));
        opts.log(`probe ${face} ${mode}, ${opts.count} subnets, round ${round + 1}: preview ${ms.toFixed(0)} ms`);
      }
    }
    rows.push(row);
    if (deploy) await opts.destroy(s);
  }
  return rows;
}

function probes(emulator: RunningEmulator): number {
  return Object.entries(emulator.metrics.snapshot().requests)
    .filter(([k]) => k.startsWith("GET /cloud/v1/projects"))
    .reduce((n, [, c]) => n + c, 0);
}
