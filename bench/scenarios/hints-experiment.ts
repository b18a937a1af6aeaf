// The duration-hints experiment: `pulumi up` of N Subnets with the proportional schedule,
// hints on (as shipped) and off (CIMS_TASK_HINTS=off: the same waiter learning nothing),
// interleaved rounds on one emulator, so both see the same machine. The run-to-run spread of
// each side is the noise a difference must beat.
import type { RunningEmulator } from "pulumi-cims/emulator";
import type { TestStack } from "../../tests/support/harness";
import { median } from "../chart";
import { timed } from "../stack-runs";

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

export async function hintsExperiment(opts: {
  emulator: RunningEmulator;
  counts: number[];
  rounds: number;
  stack: (mode: HintsMode, count: number) => Promise<TestStack>;
  destroy: (stack: TestStack) => Promise<void>;
  log: (line: string) => void;
  up: (stack: TestStack) => Promise<unknown>;
}): Promise<HintsRow[]> {
  const rows: HintsRow[] = [];
  for (const count of opts.counts) {
    const stacks = { on: await opts.stack("on", count), off: await opts.stack("off", count) };
    const row: HintsRow = { count, upMs: { on: [], off: [] }, taskGets: { on: [], off: [] } };
    for (let round = 0; round < opts.rounds; round++) {
      const order: HintsMode[] = round % 2 === 0 ? ["on", "off"] : ["off", "on"];
      for (const mode of order) {
        const before = getsSoFar(opts.emulator);
        const ms = await timed(() => opts.up(stacks[mode]));
        row.upMs[mode].push(ms);
        row.taskGets[mode].push((getsSoFar(opts.emulator) - before) / count);
        opts.log(`hints ${mode}, ${count} subnets, round ${round + 1}: up ${(ms / 1000).toFixed(1)} s`);
        await opts.destroy(stacks[mode]);
      }
    }
    rows.push(row);
  }
  return rows;
}

/** Task GETs the emulator has answered so far. */
function getsSoFar(emulator: RunningEmulator): number {
  return Object.entries(emulator.metrics.snapshot().requests)
    .filter(([k]) => k.startsWith("GET /cloud/v1/tasks/"))
    .reduce((n, [, c]) => n + c, 0);
}

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
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return [
    "Duration hints: `pulumi up` of N Subnets, proportional schedule with hints (as shipped) and without (`CIMS_TASK_HINTS=off`), interleaved rounds; the spread (slowest - fastest round of a side) is the noise a difference must beat:",
    "",
    "| subnets | rounds | hints on: median (spread) | hints off: median (spread) | saved by hints | task GETs per subnet on / off | beyond the noise |",
    "|---|---|---|---|---|---|---|",
    ...verdicts(rows).map(
      (v, i) =>
        `| ${v.count} | ${rows[i].upMs.on.length} | ${s(v.medianMs.on)} s (${s(v.spreadMs.on)} s) | ${s(v.medianMs.off)} s (${s(v.spreadMs.off)} s) | ${s(v.savedMs)} s | ${v.medianTaskGets.on.toFixed(1)} / ${v.medianTaskGets.off.toFixed(1)} | ${v.winsBeyondNoise ? "yes" : "**no**"} |`,
    ),
    "",
  ];
}
