// The duration-hints experiment: `pulumi up` of N Subnets with the proportional schedule,
// hints on (as shipped) and off (CIMS_TASK_HINTS=off: the same waiter learning nothing),
// interleaved rounds on one emulator, so both see the same machine. The run-to-run spread of
// each side is the noise a difference must beat.
import type { RunningEmulator } from "pulumi-cims/emulator";
import type { TestStack } from "../../tests/support/harness";
import { type BenchContext, LONG } from "../context";
import type { HintsMode, HintsRow } from "../report";
import { timed } from "../stack-runs";

/** The experiment at the run's sizes: 50 and 200 subnets (50 with --quick, N with --smoke), at least 3 rounds. */
export function hintsRows(ctx: BenchContext): Promise<HintsRow[]> {
  const { smoke, quick, N, rounds } = ctx.params;
  return hintsExperiment({
    emulator: ctx.emulator,
    counts: smoke ? [N] : quick ? [50] : [50, 200],
    rounds: smoke ? 1 : Math.max(3, rounds),
    stack: (mode, count) => ctx.stack("cims", ctx.cimsConfig(count), mode === "off" ? { CIMS_TASK_HINTS: "off" } : {}),
    up: (s) => s.up([], LONG),
    destroy: ctx.clear,
    log: ctx.log,
  });
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
