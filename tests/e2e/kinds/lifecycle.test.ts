// Every kind under the real engine, in one stack (tests/fixtures/programs/kinds.ts): a Subnet,
// a BaremetalImage of a seeded volume, the LbPoolSettings of a seeded pool, a
// SnapshotPolicyState, a QuotaThreshold and three LbPoolMembers of another pool (on subnets
// of the stack's, and a public one) go through one lifecycle together: create, a no-op
// preview, in-place updates (each record keeps its id; enableDhcp false is sent; the pool's
// stack member changes and its seeded member keeps its id), drift outside Pulumi seen by
// refresh and set back by up (a pool member's weight changed in place in the same up),
// replacements (a subnet with a null gateway, deleted first as it keeps its CIDR; an image of
// another architecture; another pool, policy and quota client, the replaced pool's members
// taken out and the replaced quota reset), a subnet deleted outside Pulumi dropped by refresh
// and made again (beside an image replaced by a new volume), and destroy (owned records gone;
// the pool's and the policy's settings left as they are). Explicit nulls (a subnet's gateway,
// an image's firmware, a pool's CRL) survive the engine's serialization; int64 quota numbers
// stay digit-exact. The members: created through their tasks; `up --replace` and a new
// subnetId replace a member (the same address and port: the old one goes first), a new
// address replaces one, a weight changes in place and drift on it is set back; one deleted
// outside Pulumi is dropped by refresh and made again; destroy removes them before their
// subnets, and their pool keeps the member another team had there. LbPoolMember's lifecycle
// on the plugin face: lb-pool-member.test.ts. What each kind's provider does at each step, on
// both faces, runs in process: tests/unit/provider/kinds/.
import { api, SEED, stateOf, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const OTHER_POOL = "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70";
/** The pool the stack's LbPoolMembers join: another of the seed's load balancer, holding another team's member. */
const MEMBER_POOL = "5f607182-9cad-4e1f-8a2b-3c4d5e6f7081";
const THEIR_MEMBER = "6a718293-adbe-4f20-9b3c-4d5e6f708192";
const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${MEMBER_POOL}/members`;
const SECOND_VOLUME = {
  id: "d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f60",
  name: "second-root",
  size: 20,
  status: "available",
  bootable: true,
  project_id: 1,
  region_id: 1,
};

test(
  "every kind's lifecycle in one stack: create, update in place, drift, replacement, deleted outside Pulumi, destroy",
  async () => {
    const env = await stacks.program("kinds", {
      networkId: SEED.networkId,
      volumeId: SEED.volumeId,
      poolId: SEED.poolId,
      poolExtraMember: "10.0.0.20",
      policyId: SEED.policyId,
      clientId: SEED.clientId,
      memberPoolId: MEMBER_POOL,
      memberForced: "true",
    });
    const { stack } = env;
    const { store } = env.emulator;
    const seeded = store.get("lbpools", SEED.poolId)!;
    const theirs = { ...(seeded.members as Array<Record<string, unknown>>)[0], id: THEIR_MEMBER, address: "10.0.0.40" };
    store.put("lbpools", { ...seeded, id: MEMBER_POOL, name: "members-pool", members: [theirs] });
    const get = (p: string) => api(env, "GET", p);
    const subnet = (id: unknown) => `/cloud/v1/subnets/1/1/${String(id)}`;
    const image = (id: unknown) => `/cloud/v1/images/1/1/${String(id)}`;
    const pool = (p = `1/1/${SEED.poolId}`) => get(`/cloud/v1/lbpools/${p}`).then((r) => r.body);
    const policy = (p = "1/1/101") => get(`/cloud/v1/lifecycle_policy/${p}`).then((r) => r.body);
    const quota = (client = "1") => get(`/cloud/v2/client_quotas/${client}/notification_threshold`).then((r) => r.body);
    const settle = async (task: string) => {
      for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100)))
        s = (await get(`/cloud/v1/tasks/${task}`)).body.state;
    };

    const memberPath = (id: unknown) => `${MEMBERS}/${String(id)}`;
    const memberPoolIds = async () => (await pool(`1/1/${MEMBER_POOL}`)).members.map((m: { id: string }) => m.id).sort();
    const named = (collection: "subnets", name: string) => store.list(collection).filter((r) => r.name === name);

    // Create.
    const created = await stack.up();
    // Task progress is debug output: the up says what a reader acts on, not each task's state.
    expect(created.stdout).not.toMatch(/: task [0-9a-f-]{36} /);
    const first = await stack.outputs();
    expect(first).toMatchObject({
      subnetName: "e2e-subnet",
      gatewayIp: "10.30.0.1",
      enableDhcp: true,
      policyId: "101",
      policyStatus: "paused",
      policyName: "nightly-snapshots",
      quotaId: "1",
      threshold: 75,
      keypairLimit: "9223372036854775807",
    });
    expect((await get(image(first.imageId))).body).toMatchObject({
      name: "e2e-image",
      volume_id: SEED.volumeId,
      architecture: "x86_64",
      ssh_key: "allow",
      hw_firmware_type: null,
    });
    let p = await pool();
    expect(p).toMatchObject({ name: "e2e-pool", lb_algorithm: "ROUND_ROBIN", timeout_client_data: 0 });
    expect(p.members[0].id).toBe(SEED.keptMemberId);
    expect(p.members[1]).toMatchObject({ address: "10.0.0.20", weight: 3 });
    // null is kept as null through the engine (not dropped as "omitted" = unmanaged).
    const poolState = (await stack.exportState()).deployment.resources?.find((r) => r.type.endsWith("cims:LbPoolSettings"));
    expect(poolState?.inputs).toHaveProperty("crlSecretId", null);
    expect(poolState?.outputs).toHaveProperty("crlSecretId", null);
    expect((await policy()).status).toBe("paused");
    expect(
      JSON.stringify(env.emulator.store.get("client_quotas", 1)?.last_message, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    ).toContain('"usage":"9223372036854775806"');
    const [memberId, made, pub] = [first.memberId, first.movingId, first.publicId].map(String);
    const member = (await get(memberPath(memberId))).body;
    expect(member).toMatchObject({
      id: memberId,
      address: "10.20.0.10",
      protocol_port: 8080,
      weight: 2,
      admin_state_up: true,
      backup: false,
    });
    expect(member.subnet_id).toBe(named("subnets", "app")[0]?.id);
    expect((await get(memberPath(pub))).body).toMatchObject({ address: "203.0.113.10", protocol_port: 443, subnet_id: null });
    expect(await memberPoolIds()).toEqual([THEIR_MEMBER, memberId, made, pub].sort()); // a member alone changes no other
    await stack.preview(["--expect-no-changes"]);

    // In place: every record keeps its id; a member's weight changes in place. In the same up,
    // `--replace` replaces another member: the engine asks the provider nothing, and the old
    // member (the same address and port) goes first, as the program's deleteBeforeReplace says.
    await stack.setConfigs({
      subnetDhcp: "false",
      subnetOwner: "team-b",
      imageSshKey: "deny",
      imageFirmware: "uefi",
      poolAlgorithm: "LEAST_CONNECTIONS",
      poolExtraMember: "10.0.0.21",
      poolClientTimeout: "86400000",
      policyName: "nightly",
      policyVolumes: "true",
      quotaThreshold: "90",
      memberWeight: "5",
    });
    const movingUrn = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.urn.endsWith("LbPoolMember::web"))?.urn;
    const update = await stack.up(["--replace", String(movingUrn)]);
    expect(update.stdout).not.toMatch(/: task [0-9a-f-]{36} /);
    const updated = await stack.outputs();
    expect([updated.subnetId, updated.imageId, updated.policyId, updated.quotaId]).toEqual([first.subnetId, first.imageId, "101", "1"]);
    expect((await get(subnet(first.subnetId))).body).toMatchObject({
      enable_dhcp: false,
      tags: expect.arrayContaining([{ key: "owner", value: "team-b", read_only: false }]),
    });
    expect((await get(image(first.imageId))).body).toMatchObject({ ssh_key: "deny", hw_firmware_type: "uefi" });
    p = await pool();
    expect(p).toMatchObject({ lb_algorithm: "LEAST_CONNECTIONS", timeout_client_data: 86400000 });
    expect(p.members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.10", "10.0.0.21"]);
    expect(p.members[0].id).toBe(SEED.keptMemberId);
    expect((await policy()).name).toBe("nightly");
    expect(updated.volumes).toEqual([{ volumeId: SEED.volumeId, volumeName: "golden-root" }]);
    expect((await quota()).threshold).toBe(90);
    expect(updated.memberId).toBe(memberId);
    expect((await get(memberPath(memberId))).body.weight).toBe(5);
    const forced = String(updated.movingId);
    expect(forced).not.toBe(made);
    expect((await get(memberPath(made))).status).toBe(404);
    expect(await memberPoolIds()).toEqual([THEIR_MEMBER, memberId, forced, pub].sort());
    await stack.preview(["--expect-no-changes"]);

    // Drift outside Pulumi on every kind: refresh records it, the preview shows each, and up
    // sets it back; in the same up a pool member's weight is one PATCH of it, in place (said
    // by an info message, which `up --diff` does not print: so a preview and an up here).
    await api(env, "PATCH", subnet(first.subnetId), { name: "renamed-by-hand" });
    await api(env, "PATCH", image(first.imageId), { ssh_key: "required" });
    await settle((await api(env, "PATCH", `/cloud/v1/lbpools/1/1/${SEED.poolId}`, { lb_algorithm: "SOURCE_IP" })).body.tasks[0]);
    await api(env, "PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "active" });
    await api(env, "PUT", "/cloud/v2/client_quotas/1/notification_threshold", { threshold: 61 });
    await settle((await api(env, "PATCH", memberPath(memberId), { weight: 9 })).body.tasks[0]);
    await stack.refresh();
    expect(await stateOf(env, "Subnet", "subnet")).toMatchObject({ name: "renamed-by-hand" });
    expect(await stateOf(env, "BaremetalImage", "image")).toMatchObject({ sshKey: "required" });
    expect(await stateOf(env, "LbPoolSettings", "pool")).toMatchObject({ lbAlgorithm: "SOURCE_IP" });
    expect(await stateOf(env, "SnapshotPolicyState", "policy")).toMatchObject({ status: "active" });
    expect(await stateOf(env, "QuotaThreshold", "quota")).toMatchObject({ threshold: 61 });
    expect(await stateOf(env, "LbPoolMember", "web-1")).toMatchObject({ weight: 9 });
    const member21 = p.members[1].id;
    await stack.setConfigs({ poolExtraWeight: "7" });
    const drift = (await stack.preview(["--diff"])).stdout;
    expect(drift).toMatch(/~ name\s*: "renamed-by-hand" => "e2e-subnet"/);
    expect(drift).toMatch(/~ sshKey\s*: "required" => "deny"/);
    expect(drift).toMatch(/~ lbAlgorithm\s*: "SOURCE_IP" => "LEAST_CONNECTIONS"/);
    expect(drift).toMatch(/~ status\s*: "active" => "paused"/);
    expect(drift).toMatch(/~ threshold\s*: 61 => 90/);
    expect(drift).toMatch(/~ weight\s*: 9 => 5/);
    const setBack = await stack.up();
    expect(setBack.stdout).toContain(`member 10.0.0.21:8080 (id ${member21}) weight 3 -> 7, in place`);
    expect((await get(subnet(first.subnetId))).body.name).toBe("e2e-subnet");
    expect((await get(image(first.imageId))).body.ssh_key).toBe("deny");
    p = await pool();
    expect(p.lb_algorithm).toBe("LEAST_CONNECTIONS");
    expect(p.members.map((m: { id: string; weight: number }) => [m.id, m.weight])).toEqual([
      [SEED.keptMemberId, 1],
      [member21, 7],
    ]);
    expect((await policy()).status).toBe("paused");
    expect((await quota()).threshold).toBe(90);
    expect((await get(memberPath(memberId))).body.weight).toBe(5);
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);

    // Replacements, in one up: a subnet without a gateway (its CIDR kept, so the old one goes
    // first), an image of another architecture, another pool, policy and quota client (each
    // in another project and region where it has them), a member at a new address, and one on
    // a new subnet (the same address and port: the old one goes first).
    await stack.setConfigs({
      subnetNoGateway: "true",
      imageArchitecture: "aarch64",
      poolId: OTHER_POOL,
      poolProject: "2",
      poolRegion: "3",
      policyId: "202",
      policyProject: "2",
      policyRegion: "3",
      clientId: "77",
      memberAddress: "10.20.0.11",
      memberMoved: "true",
      memberForced: "false",
    });
    expect((await stack.up(["--diff"])).stdout).toMatch(/\+-.*Subnet.*replace/);
    const replaced = await stack.outputs();
    expect(replaced).toMatchObject({ poolId: OTHER_POOL, policyId: "202", quotaId: "77" });
    expect(replaced.subnetId).not.toBe(first.subnetId);
    expect(await stateOf(env, "Subnet", "subnet")).toHaveProperty("gatewayIp", null); // null, not dropped
    expect((await get(subnet(first.subnetId))).status).toBe(404);
    expect((await get(subnet(replaced.subnetId))).body.gateway_ip).toBeNull();
    expect(replaced.imageId).not.toBe(first.imageId);
    expect((await get(image(first.imageId))).status).toBe(404);
    expect(store.list("images")).toHaveLength(1);
    expect((await pool(`2/3/${OTHER_POOL}`)).name).toBe("e2e-pool");
    // The replaced pool's delete took the members the stack made out of the first pool; its
    // settings stay, and so does the seed's member, which the stack adopted and did not make.
    expect(await pool()).toMatchObject({
      lb_algorithm: "LEAST_CONNECTIONS",
      members: [expect.objectContaining({ id: SEED.keptMemberId, address: "10.0.0.10" })],
    });
    expect((await policy("2/3/202")).status).toBe("paused");
    expect((await quota("77")).threshold).toBe(90);
    expect((await quota()).threshold).toBe(80); // the replaced one was deleted: reset to the default
    const readdressed = String(replaced.memberId);
    expect(readdressed).not.toBe(memberId);
    expect((await get(memberPath(memberId))).status).toBe(404);
    expect((await get(memberPath(readdressed))).body.address).toBe("10.20.0.11");
    const moved = String(replaced.movingId);
    expect(moved).not.toBe(forced);
    expect((await get(memberPath(moved))).body).toMatchObject({ address: "10.21.0.10", subnet_id: named("subnets", "second")[0]?.id });
    expect(await memberPoolIds()).toEqual([THEIR_MEMBER, readdressed, moved, pub].sort());
    await stack.preview(["--expect-no-changes"]);

    // The subnet and a member deleted outside Pulumi: refresh drops them, up makes them again;
    // in the same up, another volume replaces the image, made from it.
    expect((await api(env, "DELETE", subnet(replaced.subnetId))).status).toBe(200);
    await settle((await api(env, "DELETE", memberPath(readdressed))).body.tasks[0]);
    await new Promise((r) => setTimeout(r, 600));
    expect((await api(env, "POST", "/__emulator/seed", { volumes: [SECOND_VOLUME] })).status).toBe(204);
    await stack.refresh();
    expect(await stateOf(env, "Subnet", "subnet")).toBeUndefined();
    expect(await stateOf(env, "LbPoolMember", "web-1")).toBeUndefined();
    await stack.setConfigs({ volumeId: SECOND_VOLUME.id });
    await stack.up();
    const again = await stack.outputs();
    expect(named("subnets", "e2e-subnet").map((s) => s.id)).toEqual([again.subnetId]);
    expect((await get(memberPath(again.memberId))).body.address).toBe("10.20.0.11");
    expect(again.imageId).not.toBe(replaced.imageId);
    expect((await get(image(replaced.imageId))).status).toBe(404);
    expect(store.list("images").map((i) => [i.id, i.volume_id])).toEqual([[again.imageId, SECOND_VOLUME.id]]);

    // Destroy: what the stack made is gone (the members before their subnets, which the service
    // would not delete while a member uses them); settings of what it did not make are left as
    // they are.
    await stack.destroy();
    expect(store.list("subnets")).toHaveLength(0);
    expect(await memberPoolIds()).toEqual([THEIR_MEMBER]);
    expect(store.list("images")).toHaveLength(0);
    expect(await pool(`2/3/${OTHER_POOL}`)).toMatchObject({ name: "e2e-pool", members: [] });
    expect((await pool()).lb_algorithm).toBe("LEAST_CONNECTIONS");
    expect((await policy("2/3/202")).status).toBe("paused");
    expect((await quota("77")).threshold).toBe(80);
  },
  E2E_TIMEOUT_MS,
);
