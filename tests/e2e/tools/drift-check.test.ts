// The scheduled drift check of examples/ci/drift-check.yml: `pulumi refresh --preview-only
// --expect-no-changes` exits 0 while the service holds what the state says, and fails once a
// record was changed outside Pulumi (a subnet renamed through the API), naming what drifted;
// either way it writes nothing: the backend's files are byte for byte what they were. Exit
// code 7 is the CLI's own for "changes where none were expected", apart from 1 (an error).
import { createHash } from "node:crypto";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type Face, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, type TestStack } from "../../support/harness";

const stacks = useStacks();

/** The command the docs and the example job run. */
const DRIFT_CHECK = ["refresh", "--preview-only", "--expect-no-changes", "--diff", "--color", "never"];

/** Every file of the stack's file backend (checkpoint, backups, history) and a hash of its bytes. */
async function backendFiles(stack: TestStack): Promise<Record<string, string>> {
  const dir = stack.env.PULUMI_BACKEND_URL!.slice("file://".length);
  const files: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash("sha256")
      .update(await fs.readFile(file))
      .digest("hex");
  }
  return files;
}

test.each<Face>(["dynamic", "native"])(
  "%s face: the drift check passes with no drift, fails on a subnet renamed outside Pulumi, and writes nothing",
  async (face) => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId }, { taskDurationMs: 50, face });
    await env.stack.up();
    const check = async () => {
      const before = await backendFiles(env.stack);
      const r = await env.stack.run([...DRIFT_CHECK, "--stack", env.stack.name], { allowFailure: true });
      return {
        code: r.code,
        out: r.stdout + r.stderr,
        unchanged: JSON.stringify(await backendFiles(env.stack)) === JSON.stringify(before),
      };
    };

    const clean = await check();
    const [subnet] = env.emulator.store.list("subnets");
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${String(subnet.id)}`, { name: "renamed-by-hand" })).status).toBe(200);
    const drifted = await check();

    expect({
      clean: { code: clean.code, unchanged: clean.unchanged },
      drifted: {
        code: drifted.code,
        unchanged: drifted.unchanged,
        namesTheField: /~ name\s*: "e2e-subnet" => "renamed-by-hand"/.test(drifted.out) || drifted.out,
        saysWhy: /no changes were expected for refresh but changes were proposed/.test(drifted.out) || drifted.out,
      },
      serviceKeepsDrift: env.emulator.store.get("subnets", subnet.id)!.name,
    }).toEqual({
      clean: { code: 0, unchanged: true },
      // Unchanged: nothing was recorded, so the next scheduled run reads the same state and the
      // same service, and reports it again.
      drifted: { code: 7, unchanged: true, namesTheField: true, saysWhy: true },
      serviceKeepsDrift: "renamed-by-hand",
    });
  },
  E2E_TIMEOUT_MS,
);
