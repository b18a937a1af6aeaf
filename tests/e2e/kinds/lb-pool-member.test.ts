// LbPoolMember under the real engine on the plugin face (on the dynamic face its lifecycle
// runs with every other kind's, tests/e2e/kinds/lifecycle.test.ts): a member of the
// seeded (shared) pool on a new subnet, created through its task; a weight change in place (the
// same member); drift set back after refresh; an address change replaces it; a member deleted
// outside Pulumi is gone on refresh; destroy removes only the stack's members, so their subnets
// can go and the pool keeps the member it had. Beside it, replacements: `up --replace` and a
// new subnetId (the same address and port: the old member goes first); and a public member
// (neither subnetId nor instanceId) is created, refreshed and destroyed. A member already at
// the address and port refused, and a create whose answer was lost, run in process on both
// faces: tests/unit/provider/faults/member-create-lost.test.ts; an LbPoolSettings owning its
// pool's members exclusively refused at preview while an LbPoolMember's member is in the pool,
// in process on both faces: tests/unit/provider/kinds/lb-pool-settings-shared-pool.test.ts.
import { api, type CimsTestEnv, type Face, faceProject, onFace, PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();

const program = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  "const c = new pulumi.Config();",
  `const subnet = new cims.Subnet("app", { name: "app", cidr: "10.20.0.0/24", networkId: "${SEED.networkId}" });`,
  'const member = new cims.LbPoolMember("web-1", {',
  `  poolId: "${SEED.poolId}",`,
  '  address: c.get("address") ?? "10.20.0.10",',
  '  protocolPort: c.getNumber("port") ?? 8080,',
  "  subnetId: subnet.id,",
  '  weight: c.getNumber("weight") ?? 2,',
  "});",
  "export const memberId = member.id;",
].join("\n");

const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
const pool = (env: CimsTestEnv) => api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`).then((r) => r.body);

async function settle(env: CimsTestEnv, taskId: string): Promise<void> {
  for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100))) {
    s = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (s === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

/** The member lifecycle's program: `program`'s member on its subnet, beside a member whose
 * subnet moves and a public member (neither subnetId nor instanceId), all in one stack so that
 * one `up` carries every row. */
const lifecycle = [
  program,
  `const networkId = "${SEED.networkId}";`,
  'const first = new cims.Subnet("first", { name: "first", cidr: "10.21.0.0/24", networkId });',
  'const second = new cims.Subnet("second", { name: "second", cidr: "10.22.0.0/24", networkId });',
  // `up --replace` asks the provider nothing: only the option orders it delete-first.
  'const moving = new cims.LbPoolMember("web", {',
  `  poolId: "${SEED.poolId}", address: "10.21.0.10", protocolPort: 8080, subnetId: c.getBoolean("moved") ? second.id : first.id,`,
  '}, { deleteBeforeReplace: c.getBoolean("forced") || undefined });',
  `const pub = new cims.LbPoolMember("public", { poolId: "${SEED.poolId}", address: "203.0.113.10", protocolPort: 443 });`,
  "export const movingId = moving.id;",
  "export const publicId = pub.id;",
].join("\n");

test.each<Face>(["native"])(
  "%s face: create through the task, weight in place, drift, replaced by address, by `up --replace` and by a new subnetId (the old member first), a public member, gone on 404, destroy frees the subnets",
  async (face) => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": faceProject(`pool-member-${face}`, face), "index.ts": onFace(lifecycle, face) },
      config: { forced: "true" },
    });
    const { stack } = env;
    const poolIds = async () => (await pool(env)).members.map((m: { id: string }) => m.id).sort();
    const moving = async () => String((await stack.outputs()).movingId);
    const up = await stack.up();
    expect(up.stdout).not.toMatch(/: task [0-9a-f-]{36} /);
    const outputs = await stack.outputs();
    const [id, made, pub] = [outputs.memberId, outputs.movingId, outputs.publicId].map(String);
    const member = (await api(env, "GET", `${MEMBERS}/${id}`)).body;
    expect(member).toMatchObject({ id, address: "10.20.0.10", protocol_port: 8080, weight: 2, admin_state_up: true, backup: false });
    expect(member.subnet_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await api(env, "GET", `${MEMBERS}/${pub}`)).body).toMatchObject({
      address: "203.0.113.10",
      protocol_port: 443,
      subnet_id: null,
    });
    // The pool keeps the member it had: a member alone changes no other.
    expect(await poolIds()).toEqual([SEED.keptMemberId, id, made, pub].sort());
    await stack.preview(["--expect-no-changes"]);

    // --replace: the engine asks the provider nothing; the old member (same address and port)
    // goes first, as the program's deleteBeforeReplace says.
    const urn = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.urn.endsWith("LbPoolMember::web"))?.urn;
    await stack.up(["--replace", String(urn)]);
    const forced = await moving();
    expect(forced).not.toBe(made);
    expect((await api(env, "GET", `${MEMBERS}/${made}`)).status).toBe(404);

    // In one up: a weight in place (the same member), and a new subnetId, which replaces the other.
    // The diff orders this one: delete first, as the new member keeps the address and port.
    await stack.setConfigs({ weight: "5", moved: "true", forced: "false" });
    await stack.up();
    expect((await stack.outputs()).memberId).toBe(id);
    expect((await api(env, "GET", `${MEMBERS}/${id}`)).body.weight).toBe(5);
    const moved = await moving();
    expect(moved).not.toBe(forced);
    const second = env.emulator.store.list("subnets").find((s) => s.name === "second");
    expect((await api(env, "GET", `${MEMBERS}/${moved}`)).body).toMatchObject({ address: "10.21.0.10", subnet_id: second?.id });
    expect(await poolIds()).toEqual([SEED.keptMemberId, id, moved, pub].sort());
    await stack.preview(["--expect-no-changes"]);

    // Drift: the weight changed outside Pulumi; refresh sees it, up sets it back, its diff
    // (`up --diff` prints it as `preview --diff` does) showing the change.
    await settle(env, (await api(env, "PATCH", `${MEMBERS}/${id}`, { weight: 9 })).body.tasks[0]);
    await stack.refresh();
    expect((await stack.up(["--diff"])).stdout).toMatch(/~ weight\s*: 9 => 5/);
    expect((await api(env, "GET", `${MEMBERS}/${id}`)).body.weight).toBe(5);
    await stack.refresh(["--expect-no-changes"]);

    // Address: a replacement, a new member; the old one is gone.
    await stack.setConfig("address", "10.20.0.11");
    await stack.up();
    const replaced = String((await stack.outputs()).memberId);
    expect(replaced).not.toBe(id);
    expect((await api(env, "GET", `${MEMBERS}/${id}`)).status).toBe(404);
    expect((await api(env, "GET", `${MEMBERS}/${replaced}`)).body.address).toBe("10.20.0.11");

    // Deleted outside Pulumi: refresh drops it; up makes it again.
    await settle(env, (await api(env, "DELETE", `${MEMBERS}/${replaced}`)).body.tasks[0]);
    await stack.refresh();
    const resources = (await stack.exportState()).deployment.resources ?? [];
    expect(resources.some((r) => r.urn.endsWith("LbPoolMember::web-1"))).toBe(false);
    await stack.up();
    const again = String((await stack.outputs()).memberId);
    expect((await api(env, "GET", `${MEMBERS}/${again}`)).body.address).toBe("10.20.0.11");

    // Destroy: the members go first, so the service lets the subnets go; the pool keeps its own.
    await stack.destroy();
    expect((await pool(env)).members.map((m: { id: string }) => m.id)).toEqual([SEED.keptMemberId]);
    expect(env.emulator.store.list("subnets").filter((s) => ["app", "first", "second"].includes(String(s.name)))).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

// An id without its pool is refused naming both forms before any request, in process through
// the plugin's Read: tests/unit/provider/plugin/read.test.ts.
test(
  "pulumi import of a member by <poolId>/<memberId> (plugin face), with no write",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("pool-member-import"), "index.ts": "" } });
    const SUBNET = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    expect((await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: SUBNET })] })).status).toBe(204);
    const made = await api(env, "POST", MEMBERS, { address: "10.60.0.7", protocol_port: 443, subnet_id: SUBNET, weight: 3 });
    await settle(env, made.body.tasks[0]);
    const task = (await api(env, "GET", `/cloud/v1/tasks/${made.body.tasks[0]}`)).body;
    const id = String(task.created_resources.members[0]);
    env.emulator.metrics.reset();
    const args = ["cims:index:LbPoolMember", "web-7", `${SEED.poolId}/${id}`, "--yes", "--protect=false", "--generate-code=false"];
    await env.stack.run(["import", ...args, "--stack", env.stack.name]);
    expect(writes(env)).toEqual([]);
    const state = ((await env.stack.exportState()).deployment.resources ?? []).find((r) => r.type === "cims:index:LbPoolMember");
    expect(state?.id).toBe(id);
    expect(state?.inputs).toMatchObject({
      poolId: SEED.poolId,
      address: "10.60.0.7",
      protocolPort: 443,
      subnetId: SUBNET,
      weight: 3,
      projectId: 1,
      regionId: 1,
    });
  },
  E2E_TIMEOUT_MS,
);
