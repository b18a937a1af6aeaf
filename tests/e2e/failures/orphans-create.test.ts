// No orphans, Subnet create under failure: whenever the service may have made the
// subnet, either Pulumi records it (its id is known: a task lists it) and the next `up`
// continues from it, or the error says where to find it. Each ends with the stack equal to
// the service after the next `up`, and one subnet.
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
  "two tasks, the first FINISHED with the subnet and the second in ERROR: the first's subnet is recorded",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await taskFault(env, { message: "Port allocation failed", alongside: true });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    const [made] = subnetIds(env);
    expect(failed.stdout).toMatch(
      new RegExp(`was created \\(id ${made}, task\\(s\\) [0-9a-f-]{36}, [0-9a-f-]{36}\\).*Port allocation failed`),
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

test(
  "the task's status keeps failing for a while after the POST was accepted: the waiter reads on, and records the subnet",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await api(env, "POST", "/__emulator/faults", { method: "GET", path: "/cloud/v1/tasks/*", count: 12, action: "status", status: 500 });
    await env.stack.up();
    expect(subnetIds(env)).toHaveLength(1);
    expect(await inState(env)).toEqual(subnetIds(env));
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a POST answered 502: the error says the subnet may exist and how to find it; nothing was made, so the next up makes one",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await api(env, "POST", "/__emulator/faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      action: "status",
      status: 502,
    });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/502 Bad Gateway.*The service may have created Subnet "e2e-subnet"; it is not in the stack/);
    expect(failed.stdout).toContain(
      `GET /cloud/v1/subnets/1/1?network_id=${SEED.networkId} lists the network's subnets: look for one named "e2e-subnet" with cidr 10.30.0.0/24. It would carry the tag pulumi-cims-create-mark: `,
    );
    expect(await inState(env)).toEqual([]);
    await convergesOnOne(env);
  },
  E2E_TIMEOUT_MS,
);
