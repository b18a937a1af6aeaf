// Runs the lifecycle model: fast-check generates command sequences, each runs against a fresh
// emulator and stack, and a failing sequence is shrunk to the shortest that still fails.
import fc from "fast-check";
import { type Cmd, commandArbitrary, initialModel } from "./commands";
import type { Face } from "../support/cims";
import { System } from "./system";

export interface RunOptions {
  seed: number;
  runs: number;
  maxCommands: number;
  /** Emulator task duration. */
  taskDurationMs?: number;
  /** Stop generating (and shrinking) after this long; what ran is reported. */
  timeLimitMs?: number;
  /** The emulator's rate limit (requests a second per key) throughout. */
  rateLimit?: number;
  log?: (line: string) => void;
  /** Preview after every up, also one that changed no resource (System.previewEveryUp). */
  previewEveryUp?: boolean;
}

export interface RunSummary {
  seed: number;
  sequences: number;
  pulumiCommands: number;
  durationMs: number;
  /** fast-check's report: seed, replay path and the shrunk command sequence. */
  failure?: string;
}

/** The command sequences fast-check draws, of up to `maxCommands` commands. */
export const sequenceArbitrary = (maxCommands: number) => fc.commands([commandArbitrary()], { maxCommands, size: "max" });

/**
 * The fixed seed's run (tests/e2e/engine/lifecycle-model.test.ts): one sequence, whose `up`s
 * deploy the lifecycle kinds tests/unit/support/model-kits.test.ts names.
 */
export const FIXED_SEED = { seed: 239, runs: 1, maxCommands: 10 } as const;

export async function runLifecycle(opts: RunOptions): Promise<RunSummary> {
  const started = Date.now();
  const log = opts.log ?? (() => undefined);
  let sequences = 0;
  let pulumiCommands = 0;
  const property = fc.asyncProperty(sequenceArbitrary(opts.maxCommands), async (cmds) => {
    const sys = await System.start(opts.taskDurationMs ?? 50, opts.rateLimit);
    sys.previewEveryUp = opts.previewEveryUp ?? false;
    sequences++;
    const t0 = Date.now();
    try {
      await fc.asyncModelRun(() => ({ model: initialModel(), real: sys }), cmds);
      log(`sequence ${sequences}: ok, ${sys.commandsRun} pulumi commands, ${Math.round((Date.now() - t0) / 1000)} s: ${String(cmds)}`);
    } catch (err) {
      log(
        `sequence ${sequences}: FAILED after ${sys.history.join("; ")}\n  ${String(cmds)}\n  ${(err as Error).message.split("\n").slice(0, 60).join("\n  ")}`,
      );
      throw err;
    } finally {
      pulumiCommands += sys.commandsRun;
      await sys.dispose();
    }
  });
  const details = await fc.check(property, {
    seed: opts.seed,
    numRuns: opts.runs,
    interruptAfterTimeLimit: opts.timeLimitMs,
    markInterruptAsFailure: false,
  });
  const error = details.errorInstance instanceof Error ? `\nError of the shrunk sequence:\n${details.errorInstance.message}` : "";
  const failure = details.failed ? `${fc.defaultReportMessage(details) ?? ""}${error}` : undefined;
  return { seed: opts.seed, sequences, pulumiCommands, durationMs: Date.now() - started, failure };
}

/**
 * Runs one given command sequence (a soak's shrunk failure, kept as a test) against a fresh
 * emulator and stack; throws what an invariant throws. Returns the pulumi commands run, with
 * their exit codes (each `up` that changed a resource is followed by the model's `preview --expect-no-changes`). The
 * program's resources are on the dynamic face unless `face` says.
 */
export async function runSequence(cmds: Cmd[], taskDurationMs = 50, rateLimit?: number, face: Face = "dynamic"): Promise<string[]> {
  const sys = await System.start(taskDurationMs, rateLimit, face);
  try {
    await fc.asyncModelRun(() => ({ model: initialModel(), real: sys }), cmds);
    return sys.history;
  } finally {
    await sys.dispose();
  }
}
