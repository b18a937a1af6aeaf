// LbPoolSettings on a shared pool, on both faces, with the pattern docs/using.md gives (a new subnet and
// a pool member on it): the preview of the create warns of every setting it changes and takes
// no member the program does not list (the default ownership: the stack's members only); a
// weight changes in place; destroy removes the stack's member only, so the subnet can go (the
// service refuses to delete a subnet a member still uses), and the pool keeps its settings and
// another team's member. The warnings are the face's (the dynamic provider's log reaches the
// CLI another way than the plugin's), so both faces preview the create and the unchanged stack;
// the update and the destroy after them send the same requests in the same order behind either
// provider (in process on both faces: tests/unit/provider/kinds/lb-pool-settings-shared-pool.test.ts),
// so they run on the plugin face, the cheaper one.
import { api, type CimsTestEnv, type Face, faceProject, onFace, SEED, useStacks, warningLines } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

const program = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  "const c = new pulumi.Config();",
  `const subnet = new cims.Subnet("app", { name: "app", cidr: "10.20.0.0/24", networkId: "${SEED.networkId}" });`,
  'new cims.LbPoolSettings("web", {',
  `  poolId: "${SEED.poolId}",`,
  '  name: "shared-web",',
  '  members: [{ address: "10.20.0.10", protocolPort: 8080, subnetId: subnet.id, weight: c.getNumber("weight") ?? 2 }],',
  "});",
].join("\n");

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const pool = (env: CimsTestEnv) => api(env, "GET", POOL_PATH).then((r) => r.body);

async function settle(env: CimsTestEnv, taskId: string): Promise<void> {
  for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100))) {
    s = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (s === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

test.each<Face>(["dynamic", "native"])(
  "%s face: the preview warns what a create takes from a shared pool and no other member (on the plugin face then: a weight in place; destroy of a Subnet + member leaves the pool and the others' members)",
  async (face) => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": faceProject(`shared-pool-${face}`, face), "index.ts": onFace(program, face) },
    });
    const { stack } = env;

    // Create: the name changes, said as a warning in the preview. The seeded member is another
    // team's, as far as this program knows: it stays (the whole-list removal was the old default).
    const preview = await stack.preview();
    const created = warningLines(preview.stdout + preview.stderr);
    expect(created).toContain(`LbPoolSettings of pool ${SEED.poolId}: the create changes name: "web-pool" -> "shared-web"`);
    expect(created).not.toContain("removes member");
    await stack.up();
    let p = await pool(env);
    const member = p.members.find((m: { address: string }) => m.address === "10.20.0.10");
    expect(member).toMatchObject({ weight: 2, subnet_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(p.members.map((m: { id: string }) => m.id)).toEqual([SEED.keptMemberId, member.id]);
    const quiet = await stack.preview(["--expect-no-changes"]);
    expect(warningLines(quiet.stdout + quiet.stderr)).not.toContain("LbPoolSettings");
    if (face === "dynamic") return;

    // Update: a new weight lands in place (one member PATCH: the same member, no re-add to warn of).
    // The up runs the check and diff a preview does, which say what a preview would warn of.
    await stack.setConfig("weight", "5");
    const reweigh = await stack.up();
    expect(warningLines(reweigh.stdout + reweigh.stderr)).not.toContain("LbPoolSettings");
    p = await pool(env);
    expect(p.members).toEqual([
      expect.objectContaining({ id: SEED.keptMemberId }),
      expect.objectContaining({ id: member.id, address: "10.20.0.10", weight: 5 }),
    ]);

    // Another team adds its member to the pool.
    const theirs = { address: "10.0.0.99", protocol_port: 80 };
    const added = await api(env, "PATCH", POOL_PATH, { members: [{ address: "10.20.0.10", protocol_port: 8080 }, theirs] });
    await settle(env, added.body.tasks[0]);

    // Destroy: the stack's member leaves the pool first, so its subnet can be deleted.
    await stack.destroy();
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
    p = await pool(env);
    expect(p.members).toEqual([expect.objectContaining(theirs)]);
    expect(p).toMatchObject({ name: "shared-web", lb_algorithm: "ROUND_ROBIN", timeout_client_data: 50000 });
  },
  E2E_TIMEOUT_MS,
);
