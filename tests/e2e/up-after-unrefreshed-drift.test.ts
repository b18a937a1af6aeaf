// Found by the lifecycle model (tests/model, seed 4, shrunk): a subnet renamed
// outside Pulumi, then an in-place change of another field and `pulumi up` without a refresh.
// The update PATCHed only the fields that changed between the state and the program
// (enableDhcp) and recorded the service's answer, which carried the drifted name: `up`
// succeeded while the service kept "renamed-by-hand", and the next `pulumi preview` showed a
// name change. The settings resources (pool, policy) had the same fault. Now an update also
// sets back what drifted, and the next preview is clean.
import { api, type CimsTestEnv, SEED, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS } from "../support/harness";

const stacks = useStacks();

test(
  "an in-place update after unrefreshed drift leaves the service with the program's values and a clean preview",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId }, { taskDurationMs: 50 });
    await env.stack.up();
    const [subnet] = env.emulator.store.list("subnets");
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${String(subnet.id)}`, { name: "renamed-by-hand" })).status).toBe(200);

    await env.stack.setConfig("enableDhcp", "false");
    await env.stack.up();

    const record = env.emulator.store.get("subnets", subnet.id)!;
    const preview = await env.stack.preview(["--expect-no-changes", "--diff"], { allowFailure: true });
    expect({ name: record.name, enableDhcp: record.enable_dhcp, preview: preview.code === 0 ? "no changes" : preview.stdout }).toEqual({
      name: "e2e-subnet",
      enableDhcp: false,
      preview: "no changes",
    });
  },
  E2E_TIMEOUT_MS,
);

/** Waits for the tasks a change made outside Pulumi started. */
async function settle(e: CimsTestEnv, tasks: string[]): Promise<void> {
  for (const task of tasks)
    for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 50)))
      s = (await api(e, "GET", `/cloud/v1/tasks/${task}`)).body.state;
}

test(
  "a pool update after unrefreshed drift of its name and members sets them back",
  async () => {
    const env = await stacks.program("pool", { poolId: SEED.poolId }, { taskDurationMs: 50 });
    await env.stack.up();
    const poolPath = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
    const drift = await api(env, "PATCH", poolPath, {
      name: "renamed-by-hand",
      members: [
        { address: "10.0.0.10", protocol_port: 8080 },
        { address: "10.0.0.99", protocol_port: 8080 },
      ],
    });
    expect(drift.status).toBe(200);
    await settle(env, drift.body.tasks);

    await env.stack.setConfig("algorithm", "LEAST_CONNECTIONS");
    await env.stack.up();

    const pool = (await api(env, "GET", poolPath)).body;
    const preview = await env.stack.preview(["--expect-no-changes", "--diff"], { allowFailure: true });
    expect({
      name: pool.name,
      lbAlgorithm: pool.lb_algorithm,
      members: (pool.members as Array<{ address: string }>).map((m) => m.address),
      preview: preview.code === 0 ? "no changes" : preview.stdout,
    }).toEqual({ name: "e2e-pool", lbAlgorithm: "LEAST_CONNECTIONS", members: ["10.0.0.10"], preview: "no changes" });
  },
  E2E_TIMEOUT_MS,
);

test(
  "a policy update after an unrefreshed rename sets the name back",
  async () => {
    const env = await stacks.program("policy", { policyId: SEED.policyId, name: "nightly" });
    await env.stack.up();
    const policyPath = `/cloud/v1/lifecycle_policy/1/1/${SEED.policyId}`;
    expect((await api(env, "PATCH", policyPath, { name: "renamed-by-hand" })).status).toBe(200);

    await env.stack.setConfig("status", "active");
    await env.stack.up();

    const policy = (await api(env, "GET", policyPath)).body;
    const preview = await env.stack.preview(["--expect-no-changes", "--diff"], { allowFailure: true });
    expect({ name: policy.name, status: policy.status, preview: preview.code === 0 ? "no changes" : preview.stdout }).toEqual({
      name: "nightly",
      status: "active",
      preview: "no changes",
    });
  },
  E2E_TIMEOUT_MS,
);
