// The demo program: the five resources wired together (a subnet id feeding a pool
// member, an image from a seeded volume, a paused policy, a 75% threshold) through up,
// preview --expect-no-changes, an update, refresh --expect-no-changes and destroy against
// the emulator; and the state never holds the API key.
import * as path from "node:path";
import { api, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";

const stacks = useStacks();

test(
  "examples/quickstart: up, no-op preview, update, no-op refresh, destroy",
  async () => {
    const env = await stacks.stack({
      programDir: path.join(REPO_ROOT, "examples/quickstart"),
      files: { "Pulumi.yaml": "name: quickstart-e2e\nruntime: nodejs\n" },
      config: { networkId: SEED.networkId, volumeId: SEED.volumeId, poolId: SEED.poolId, policyId: SEED.policyId, clientId: SEED.clientId },
    });
    const { stack } = env;
    const up = await stack.up();
    // Task progress is debug output (`--debug`, CIMS_DEBUG=1), not part of what an up says.
    expect(up.stdout).not.toMatch(/: task [0-9a-f-]{36} /);

    const out = await stack.outputs();
    expect(out.subnetId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.subnetGateway).toBe("10.20.0.1");
    expect(out.imageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.imageStatus).toBe("active");
    expect(out.policyStatus).toBe("paused");
    expect(out.quotaThreshold).toBe(75);
    expect(out.projectCountLimit).toBe("9223372036854775807");
    // The seeded member kept its id; the new one sits in the new subnet.
    const pool = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
    expect(pool.members).toHaveLength(2);
    expect(pool.members[0].id).toBe(SEED.keptMemberId);
    expect(pool.members[1]).toMatchObject({ address: "10.20.0.10", weight: 2, subnet_id: out.subnetId });
    expect(pool.lb_algorithm).toBe("LEAST_CONNECTIONS");
    expect((await api(env, "GET", "/cloud/v1/lifecycle_policy/1/1/101")).body.status).toBe("paused");

    await stack.preview(["--expect-no-changes"]);

    // An in-place update of the subnet (a tag) and of the pool (a member).
    await stack.setConfigs({ team: "networking", memberAddress: "10.20.0.11" });
    // `up --diff` prints each step's diff as `preview --diff` does (the same Diff call): the
    // change, and no provider text.
    const update = await stack.up(["--diff"]);
    expect(update.stdout).toContain('team: "platform" => "networking"');
    expect(update.stdout).not.toMatch(/__provider/);
    const after = await stack.outputs();
    expect(after.subnetId).toBe(out.subnetId);
    const subnet = (await api(env, "GET", `/cloud/v1/subnets/1/1/${String(out.subnetId)}`)).body;
    expect(subnet.tags.filter((t: { read_only: boolean }) => !t.read_only)).toEqual([
      { key: "env", value: "e2e", read_only: false },
      { key: "team", value: "networking", read_only: false },
    ]);
    const members = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body.members;
    expect(members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.10", "10.20.0.11"]);

    await stack.refresh(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes"]);

    // The API key is in no resource's state. Pulumi itself records the stack config it hands
    // the default pulumi-nodejs provider, the key encrypted as a secret: so it is absent from
    // the export, and with --show-secrets it appears only in that engine record.
    expect(JSON.stringify(await stack.exportState())).not.toContain(env.apiKey);
    const revealed = (await stack.exportState(["--show-secrets"])).deployment.resources ?? [];
    for (const r of revealed.filter((r) => r.type !== "pulumi:providers:pulumi-nodejs")) {
      expect(JSON.stringify(r)).not.toContain(env.apiKey);
    }
    // Every serialized provider is small (the shim's text) and identical per type.
    const shims = new Map<string, Set<string>>();
    for (const r of (await stack.exportState()).deployment.resources ?? []) {
      const text = r.inputs?.__provider;
      if (typeof text !== "string") continue;
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(80);
      shims.set(r.type, (shims.get(r.type) ?? new Set()).add(text));
    }
    expect([...shims.keys()].sort()).toEqual(
      ["BaremetalImage", "LbPoolSettings", "QuotaThreshold", "SnapshotPolicyState", "Subnet"].map((t) => `pulumi-nodejs:dynamic/cims:${t}`),
    );
    for (const [type, texts] of shims) {
      expect(texts.size).toBe(1);
      // The whole text is this template: no implementation in it, so changing the
      // implementation can never change it, and every resource of a kind loads one provider.
      const kind = type.split(":").pop();
      expect([...texts][0]).toBe(`exports.handler=()=>require('pulumi-cims/dynamic').${kind}`);
    }

    await stack.destroy();
    const state = env.emulator.store;
    expect(state.list("subnets")).toHaveLength(0);
    expect(state.list("images")).toHaveLength(0);
    // The pool and its settings stay; the program's member left it first, so the subnet could go,
    // and the member no stack made (the seed's) was never touched.
    expect(state.get("lbpools", SEED.poolId)).toMatchObject({
      lb_algorithm: "LEAST_CONNECTIONS",
      members: [expect.objectContaining({ id: SEED.keptMemberId, address: "10.0.0.10" })],
    });
    expect(state.get("client_quotas", 1)?.threshold).toBe(80); // reset by DELETE
  },
  E2E_TIMEOUT_MS,
);
