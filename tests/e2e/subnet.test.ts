// Subnet under the real engine: create, no-op preview, in-place update (enableDhcp false is
// sent), replacement (null gateway survives Pulumi's serialization), drift and deletion
// outside Pulumi picked up by refresh, an actionable task ERROR, destroy.
import { api, SEED, stateOf, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS } from "../support/harness";

const stacks = useStacks();

test(
  "Subnet lifecycle",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    const { stack } = env;
    await stack.up();
    const first = await stack.outputs();
    expect(first).toMatchObject({ name: "e2e-subnet", gatewayIp: "10.30.0.1", enableDhcp: true });
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("enableDhcp", "false");
    await stack.setConfig("owner", "team-b");
    await stack.up();
    expect((await stack.outputs()).id).toBe(first.id);
    const updated = (await api(env, "GET", `/cloud/v1/subnets/1/1/${String(first.id)}`)).body;
    expect(updated).toMatchObject({
      enable_dhcp: false,
      tags: expect.arrayContaining([{ key: "owner", value: "team-b", read_only: false }]),
    });
    await stack.preview(["--expect-no-changes"]);

    // connectToNetworkRouter false + gatewayIp null: a replacement, deleted first (same CIDR).
    await stack.setConfig("noGateway", "true");
    const preview = await stack.preview(["--diff"]);
    expect(preview.stdout).toMatch(/\+-.*Subnet.*replace/);
    await stack.up();
    const replaced = await stack.outputs();
    expect(replaced.id).not.toBe(first.id);
    expect(await stateOf(env, "Subnet")).toHaveProperty("gatewayIp", null); // null, not dropped
    expect((await api(env, "GET", `/cloud/v1/subnets/1/1/${String(first.id)}`)).status).toBe(404);
    expect((await api(env, "GET", `/cloud/v1/subnets/1/1/${String(replaced.id)}`)).body.gateway_ip).toBeNull();
    await stack.preview(["--expect-no-changes"]);

    // Drift: renamed outside Pulumi. refresh records it in state; up puts it back.
    await api(env, "PATCH", `/cloud/v1/subnets/1/1/${String(replaced.id)}`, { name: "renamed-by-hand" });
    await stack.refresh();
    expect((await stateOf(env, "Subnet"))?.name).toBe("renamed-by-hand");
    const drift = await stack.preview(["--diff"]);
    expect(drift.stdout).toMatch(/~ name\s*: "renamed-by-hand" => "e2e-subnet"/);
    await stack.up();
    expect((await api(env, "GET", `/cloud/v1/subnets/1/1/${String(replaced.id)}`)).body.name).toBe("e2e-subnet");

    // Deleted outside Pulumi: refresh drops it, up creates it again.
    const del = await api(env, "DELETE", `/cloud/v1/subnets/1/1/${String(replaced.id)}`);
    expect(del.status).toBe(200);
    await new Promise((r) => setTimeout(r, 600));
    await stack.refresh();
    expect(await stateOf(env, "Subnet")).toBeUndefined();
    await stack.up();
    expect(env.emulator.store.list("subnets")).toHaveLength(1);

    await stack.destroy();
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a task ERROR names the resource, the task and the service's reason; after the fault, up converges",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    await api(env, "POST", "/__emulator/task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "No free IP addresses in the pool",
    });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/Subnet "e2e-subnet": task [0-9a-f-]{36} \(create_subnet\) failed: No free IP addresses in the pool/);
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
    expect((await env.stack.exportState()).deployment.resources?.some((r) => r.type.endsWith("cims:Subnet"))).toBe(false);
    await env.stack.up();
    expect(env.emulator.store.list("subnets")).toHaveLength(1);
  },
  E2E_TIMEOUT_MS,
);

test(
  "created but not read back: Pulumi records the subnet (no orphan), and the next up converges without a duplicate",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId });
    // The create task succeeds, but the read that follows is refused once.
    await api(env, "POST", "/__emulator/faults", {
      method: "GET",
      path: "/cloud/v1/subnets/1/1/*",
      count: 1,
      action: "status",
      status: 404,
    });
    const failed = await env.stack.up([], { allowFailure: true });
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).toMatch(/Subnet "e2e-subnet" was created \(id [0-9a-f-]{36}\) but reading it back failed/);
    const [created] = env.emulator.store.list("subnets");
    expect((await stateOf(env, "Subnet"))?.taskIds).toHaveLength(1);
    expect((await env.stack.exportState()).deployment.resources?.find((r) => r.type.endsWith("cims:Subnet"))?.id).toBe(created.id);
    await env.stack.up();
    expect(env.emulator.store.list("subnets").map((s) => s.id)).toEqual([created.id]);
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);
