// No orphans, Subnet create under failure, what only the engine shows: a subnet the service
// made while the create failed is recorded in the stack's state (its id is known: a task
// lists it), kept by refresh while its task still runs, and the next `up` continues from it.
// Each ends with the stack equal to the service after the next `up`, and one subnet. The
// provider's side of these and more (two tasks, one in ERROR; a task's status failing for a
// while; a POST answered 502) runs in process: tests/unit/provider/faults/subnet-create-orphans.test.ts.
import { api, type CimsTestEnv, SEED, stateOf, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const subnetIds = (e: CimsTestEnv) => e.emulator.store.list("subnets").map((s) => String(s.id));
const inState = async (e: CimsTestEnv) =>
  ((await e.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.endsWith("cims:Subnet")).map((r) => String(r.id));

/** After the fault: the next `up` converges on one subnet, recorded, and nothing more to do. */
async function convergesOnOne(e: CimsTestEnv): Promise<void> {
  await api(e, "DELETE", "/__emulator/faults");
  await e.stack.up();
  expect(subnetIds(e)).toHaveLength(1);
  expect(await inState(e)).toEqual(subnetIds(e));
  await e.stack.preview(["--expect-no-changes"]);
}

const taskFault = (e: CimsTestEnv, fault: Record<string, unknown>) =>
  api(e, "POST", "/__emulator/task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, ...fault });

test(
  "a task that ends in ERROR after creating the subnet: recorded with its id, the next up continues from it",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await taskFault(env, { message: "DHCP agent failed after the subnet was made", keepCreated: true });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    const [made] = subnetIds(env);
    expect(failed.stdout).toMatch(
      new RegExp(
        `Subnet "e2e-subnet" was created \\(id ${made}, task\\(s\\) [0-9a-f-]{36}\\) but the create did not complete: .*DHCP agent failed`,
      ),
    );
    expect(await inState(env)).toEqual([made]);
    await convergesOnOne(env);
    expect(subnetIds(env)).toEqual([made]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "the deadline passes while the task runs, its id already listed: recorded; refresh keeps it while it runs; the next up waits for it",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId, createTimeout: "2" }, { taskDurationMs: 8000 });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(
      /was created \(id [0-9a-f-]{36}, task\(s\) [0-9a-f-]{36}\) but the create did not complete: .*timed out after 2s.*once its task ends/,
    );
    const recorded = await inState(env);
    expect(recorded).toHaveLength(1);
    expect(subnetIds(env)).toEqual([]); // still being made
    expect((await stateOf(env, "Subnet"))?.__pendingTaskIds).toHaveLength(1);
    await env.stack.refresh();
    expect(await inState(env)).toEqual(recorded); // not dropped: its create is still running
    await env.stack.setConfig("createTimeout", "600");
    await convergesOnOne(env);
    expect(subnetIds(env)).toEqual(recorded);
    expect(await stateOf(env, "Subnet")).not.toHaveProperty("__pendingTaskIds");
  },
  E2E_TIMEOUT_MS,
);
