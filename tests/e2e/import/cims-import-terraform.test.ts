// cims-import --from-terraform under the real engine: the emulator holds what a Terraform
// state of both generations of the vendor's provider names (tests/fixtures/terraform/gone.tfstate:
// subnets, a bare-metal image, a pool whose members are both inline and separate resources, a
// public member, a lifecycle policy), except a subnet and a member someone deleted outside
// Terraform. The built CLI writes the program; its first `up` adopts everything else with no
// write (no POST, PATCH, PUT or DELETE), the next preview finds no changes, and an update in
// place (a subnet's name, a separate member's weight) then works with one PATCH each. A first-generation
// state alone: its pool (which manages no members) is adopted without them, its public member
// as an LbPoolMember, with no write.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, SEED, useStacks, writes } from "../../support/cims";
import { cimsImport } from "../../support/cims-import";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { GONE_ADOPTED, terraformSeed, TF, tfState } from "../../support/terraform";

const stacks = useStacks();

/** A nodejs stack whose emulator holds what the states name, and the program cims-import writes from `state` into it. */
async function importing(name: string, state: Parameters<typeof tfState>[0]) {
  const env = await stacks.stack({
    files: { "Pulumi.yaml": `name: ${name}\nruntime: nodejs\n`, "package.json": `{ "name": "${name}" }\n` },
  });
  expect((await api(env, "POST", "/__emulator/seed", terraformSeed())).status).toBe(204);
  const program = path.join(env.stack.projectDir, "index.ts");
  const written = await cimsImport(["--from-terraform", tfState(state), "--out", program], env);
  expect(written.code).toBe(0);
  return { env, program, written };
}

/** The first up: no write, and the stack holds exactly `expected` (`<Type> <id>`). */
async function upAdopts(env: CimsTestEnv, expected: string[]): Promise<void> {
  env.emulator.metrics.reset();
  await env.stack.up();
  expect(writes(env)).toEqual([]);
  const resources = ((await env.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.includes("dynamic/cims:"));
  expect(resources.map((r) => `${r.type.split(":").pop()} ${r.id}`).sort()).toEqual(expected.sort());
}

test(
  "a Terraform state's program adopts every record the service still has with no write, previews with no changes, then updates in place",
  async () => {
    const { env, program, written } = await importing("from-terraform", "gone");
    expect(written.stderr).toContain(
      `gone: module.net.gcore_subnet.old[0] (gcore_subnet): the service answered 404 for subnet ${TF.subnetOld} in project 1, region 1`,
    );
    expect(written.stderr).toContain("not adopted: random_id.suffix (random_id)");
    expect(written.stderr).not.toContain(env.apiKey);
    const source = await fs.readFile(program, "utf8");

    await upAdopts(env, GONE_ADOPTED);
    const preview = await env.stack.preview(["--expect-no-changes", "--diff", "--color", "never"]);
    expect(preview.stdout + preview.stderr).not.toMatch(/warning|removed from the program/i);
    expect(writes(env)).toEqual([]);
    // The pool holds all three members still: the program's pool lists one, the other two are LbPoolMembers.
    expect((await api(env, "GET", `/cloud/v1/lbpools/1/1/${TF.apiPool}`)).body.members).toHaveLength(3);

    // An update in place: the Terraform-made subnet's name and the public member's weight.
    const renamed = source
      .replace('name: "app",', 'name: "app-renamed",')
      .replace(/(new cims\.LbPoolMember\("member-203-0-113-10-443", \{[\s\S]*?weight: )1,/, "$14,");
    expect(renamed).not.toBe(source);
    await fs.writeFile(program, renamed);
    env.emulator.metrics.reset();
    await env.stack.up();
    expect(writes(env).sort()).toEqual(
      [
        "PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1",
        "PATCH /cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members/:member_id 200 x1",
      ].sort(),
    );
    expect(env.emulator.store.get("subnets", TF.subnetApp)).toMatchObject({ name: "app-renamed" });
    const members = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${TF.apiPool}`)).body.members as Array<Record<string, unknown>>;
    expect(members.find((m) => m.id === TF.memberPublic)).toMatchObject({ weight: 4 });
    expect(members).toHaveLength(3);
    // No preview after it: that an update in place then shows no changes is lifecycle.test.ts's
    // (a member's weight, on this face) and adopt.test.ts's (an adopted subnet's PATCH, whose
    // diff is the provider's on either face); what is this program's own, that it adopts with
    // no write and no change, the preview above showed.
  },
  E2E_TIMEOUT_MS,
);

test(
  "a first-generation state: the pool adopted without members, its public member as an LbPoolMember, no write and no changes",
  async () => {
    const { env } = await importing("from-terraform-v1", "v1");
    await upAdopts(env, [
      `Subnet ${TF.subnetApp}`,
      `LbPoolSettings ${SEED.poolId}`,
      `LbPoolMember ${SEED.keptMemberId}`,
      `SnapshotPolicy ${SEED.policyId}`,
    ]);
    await env.stack.preview(["--expect-no-changes"]);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);
