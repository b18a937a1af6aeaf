// The fault matrix's rows that only the engine shows, through the real CLI: what a failure
// leaves in the stack's state (a partly created resource recorded, the state agreeing with the
// service after a failed update or delete, and after a refresh), and the next command
// converging from it. Rows that need no fresh stack walk one stack in turn (engineRows). Every row of the matrix also runs in process, at the provider's methods
// (tests/unit/provider/faults/); the rows, their outcomes and why are tests/support/faults.ts.
import type { Kind } from "../../../provider/kinds/registry";
import { KITS } from "../../kits";
import { type Face, useStacks } from "../../support/cims";
import { arm, clearFaults, type Matrix, matrixOf, messageOf, type Op, type Row, rowNamed, usesLeft } from "../../support/faults";
import type { EngineScene } from "../../support/scenes";

async function runRow(scene: EngineScene, matrix: Matrix, op: Op, { fault, expected, row }: Row): Promise<void> {
  const { env } = scene;
  try {
    await scene.next();
    const armed = await arm(env, matrix, op, fault);
    const result = await scene.run(true);
    const output = result.stdout + result.stderr;
    expect(usesLeft(env)).toBeLessThan(armed);

    if (expected.outcome === "recovers") {
      expect({ code: result.code, output: result.code === 0 ? "" : output }).toEqual({ code: 0, output: "" });
      await scene.check(true);
      return;
    }
    expect(result.code).not.toBe(0);
    const message = messageOf(expected, row);
    if (message) expect(output).toMatch(message);
    await clearFaults(env);
    if (expected.settlesLater) await scene.settle();
    else await scene.check(false);
    // Fault cleared: the same command converges.
    await scene.run(false);
    await scene.check(true);
  } finally {
    await clearFaults(env);
  }
}

/**
 * Rows of a kind's operations, on a face, walked in order on one stack: the first row's, its kit
 * readies as for a row of its own (`faults.engineScene`); each later row readies its change on the
 * stack the row before it left converged (its scene's `on`). For rows that need no fresh stack:
 * each ends with the state agreeing with the service and the service holding what the program
 * declares, which is what a fresh stack's first `up` leaves.
 */
export function engineRows(kind: Kind, face: Face, rows: ReadonlyArray<readonly [Op, string]>): void {
  const matrix = matrixOf(kind);
  const walked = rows.map(([op, faultName]) => ({ op, row: rowNamed(matrix, op, faultName) }));
  const scene = KITS[kind].faults?.engineScene;
  if (!scene) throw new Error(`fault matrix through the engine: ${kind}'s test kit (tests/kits/) has no faults.engineScene`);
  const later = walked.slice(1).find(({ row }) => Object.keys(row.fault.config ?? {}).length > 0);
  if (later)
    throw new Error(
      `fault matrix through the engine: ${kind} ${later.op} + ${later.row.fault.name} has stack config of its own: give it engineRow, a stack of its own`,
    );
  const names = walked.map(({ op, row }) => `${op} + ${row.fault.name}: ${row.expected.outcome}`);
  describe(`fault matrix through the engine: ${kind} ${walked.map(({ op }) => op).join(", then ")} on one stack${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    const stacks = useStacks();
    test(
      names.join("; then "),
      async () => {
        let on: EngineScene["env"] | undefined;
        for (const { op, row } of walked) {
          const readied = await scene({ stacks, op, face, config: row.fault.config ?? {}, row: row.row, on });
          if (on && readied.env !== on)
            throw new Error(
              `fault matrix through the engine: ${kind}'s engineScene readied ${op} on a stack of its own, not on the one given`,
            );
          await runRow(readied, matrix, op, row);
          on = readied.env;
        }
      },
      10 * 60_000,
    );
  });
}

/** The row of that fault for an operation of a kind, on a face, on a stack of its own its kit readies (`faults.engineScene`). */
export function engineRow(kind: Kind, op: Op, face: Face, faultName: string): void {
  const matrix = matrixOf(kind);
  const row = rowNamed(matrix, op, faultName);
  const scene = KITS[kind].faults?.engineScene;
  if (!scene) throw new Error(`fault matrix through the engine: ${kind}'s test kit (tests/kits/) has no faults.engineScene`);
  describe(`fault matrix through the engine: ${kind} ${op}${face === "dynamic" ? "" : ` (${face} face)`}`, () => {
    const stacks = useStacks();
    test(
      `${op} + ${faultName}: ${row.expected.outcome}`,
      async () => {
        const readied = await scene({ stacks, op, face, config: row.fault.config ?? {}, row: row.row });
        await runRow(readied, matrix, op, row);
      },
      10 * 60_000,
    );
  });
}
