// cims-import --from-terraform on the Terraform states of tests/fixtures/terraform (both
// generations of the vendor's provider, format 4; README.md there says where each shape comes
// from): what each state adopts and as what, every other resource listed by address with why,
// and, against an in-process emulator, the program written: a pool's members split between the
// pool's `members` (inline) and LbPoolMember (separate resources, a public one included), a
// record gone from the service named while the rest is adopted.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { main, parseOptions } from "../../../../provider/import/cli";
import { readTerraformState, TerraformStateError } from "../../../../provider/import/terraform";
import { SEED, SEED_FILE } from "../../../support/cims";
import { terraformSeed, TF, tfState, V1_POOL } from "../../../support/terraform";

const read = (name: Parameters<typeof tfState>[0]) => readTerraformState(fs.readFileSync(tfState(name), "utf8"), `${name}.tfstate`);
const adopted = (name: Parameters<typeof tfState>[0]) => read(name).adopted.map((r) => `${r.address} ${r.kind} ${r.id}`);
const skipped = (name: Parameters<typeof tfState>[0]) => Object.fromEntries(read(name).skipped.map((s) => [s.address, s.why]));

describe("reading a state", () => {
  test("v1: subnet, pool, member (public) and lifecycle policy by their kinds; the rest named with why", () => {
    expect(adopted("v1")).toEqual([
      `gcore_subnet.app Subnet ${TF.subnetApp}`,
      `gcore_lbpool.web LbPoolSettings ${V1_POOL.pool}`,
      `gcore_lbmember.public LbPoolMember ${V1_POOL.member}`,
      "gcore_lifecyclepolicy.nightly SnapshotPolicy 101",
    ]);
    const member = read("v1").adopted.find((r) => r.kind === "LbPoolMember");
    expect(member).toMatchObject({ poolId: V1_POOL.pool, scope: { projectId: 1, regionId: 1 }, generation: 1 });
    // A v1 pool lists no members of its own.
    expect(read("v1").adopted.find((r) => r.kind === "LbPoolSettings")?.inlineMembers).toBeUndefined();
    expect(skipped("v1")).toEqual({
      "gcore_network.main": expect.stringContaining("pulumi-cims has no Network kind"),
      "gcore_loadbalancerv2.lb": expect.stringContaining("not the load balancer"),
      "gcore_gpu_baremetal_image.gpu": expect.stringContaining("GPU cluster image"),
      "data.gcore_image.debian": expect.stringContaining("a data source"),
    });
  });

  test("v2: subnet, bare-metal image, pool with its inline members, separate members; a virtual image is not adopted", () => {
    expect(adopted("v2")).toEqual([
      `gcore_cloud_network_subnet.db Subnet ${TF.subnetDb}`,
      `gcore_cloud_instance_image.golden BaremetalImage ${TF.image}`,
      `gcore_cloud_instance_image.uploaded BaremetalImage ${TF.imageUploaded}`,
      `gcore_cloud_load_balancer_pool.api LbPoolSettings ${TF.apiPool}`,
      `gcore_cloud_load_balancer_pool_member.public LbPoolMember ${TF.memberPublic}`,
      `gcore_cloud_load_balancer_pool_member.app LbPoolMember ${TF.memberApp}`,
    ]);
    expect(read("v2").adopted.find((r) => r.kind === "LbPoolSettings")?.inlineMembers).toEqual([
      "203.0.113.10:443",
      "10.60.0.11:8080",
      "10.61.0.12:8080",
    ]);
    expect(skipped("v2")).toEqual({
      "gcore_cloud_network.main": expect.stringContaining("pulumi-cims has no Network kind"),
      "gcore_cloud_instance_image.vm": expect.stringContaining("is_baremetal is not true"),
    });
  });

  test("mixed generations, modules and another provider: addresses as Terraform prints them", () => {
    expect(adopted("mixed")).toEqual([
      `module.net.gcore_subnet.app Subnet ${TF.subnetApp}`,
      `gcore_cloud_network_subnet.db Subnet ${TF.subnetDb}`,
      `gcore_cloud_instance_image.golden BaremetalImage ${TF.image}`,
      `gcore_cloud_load_balancer_pool.api LbPoolSettings ${TF.apiPool}`,
      `gcore_cloud_load_balancer_pool_member.public LbPoolMember ${TF.memberPublic}`,
      `gcore_cloud_load_balancer_pool_member.app LbPoolMember ${TF.memberApp}`,
      "gcore_lifecyclepolicy.nightly SnapshotPolicy 101",
    ]);
    expect(new Set(read("mixed").adopted.map((r) => r.generation))).toEqual(new Set([1, 2]));
    expect(skipped("mixed")).toEqual({
      "module.net.gcore_network.main": expect.any(String),
      "random_id.suffix": 'not the vendor\'s provider (provider["registry.terraform.io/hashicorp/random"])',
    });
    expect(adopted("gone")).toContain(`module.net.gcore_subnet.old[0] Subnet ${TF.subnetOld}`);
  });

  test("a state without a scope takes --project and --region, else names the record; other formats are refused", () => {
    const state = (attributes: Record<string, unknown>, version = 4) =>
      JSON.stringify({
        version,
        resources: [
          {
            mode: "managed",
            type: "gcore_cloud_network_subnet",
            name: "s",
            provider: 'provider["registry.terraform.io/g-core/gcore"]',
            instances: [{ schema_version: 0, attributes }],
          },
        ],
      });
    const noScope = { id: TF.subnetDb, project_id: null, region_id: null };
    expect(readTerraformState(state(noScope), "s.tfstate").skipped).toEqual([
      {
        address: "gcore_cloud_network_subnet.s",
        type: "gcore_cloud_network_subnet",
        why: "the state names no project_id and region_id for it: give --project and --region",
      },
    ]);
    expect(readTerraformState(state(noScope), "s.tfstate", { projectId: 2, regionId: 3 }).adopted[0].scope).toEqual({
      projectId: 2,
      regionId: 3,
    });
    expect(() => readTerraformState(state(noScope, 3), "old.tfstate")).toThrow(
      new TerraformStateError(
        "old.tfstate is a Terraform state of format version 3; cims-import reads version 4 (Terraform 0.12 and later). " +
          "Run `terraform state pull > terraform.tfstate` with Terraform 0.12 or later, and give that file.",
      ),
    );
    expect(() => readTerraformState("{", "x.tfstate")).toThrow(/x.tfstate is not JSON .*: is it a Terraform state\?/);
  });

  test("flags: --from-terraform takes no --pool (the state names the records); --project and --region go together", () => {
    expect(parseOptions(["--from-terraform", "t.tfstate"])).toMatchObject({
      fromTerraform: "t.tfstate",
      fallback: undefined,
      protect: true,
    });
    expect(parseOptions(["--from-terraform", "t.tfstate", "--project", "2", "--region", "3", "--no-protect"])).toMatchObject({
      fallback: { projectId: 2, regionId: 3 },
      protect: false,
    });
    expect(() => parseOptions(["--from-terraform", "t.tfstate", "--pool", SEED.poolId])).toThrow(
      "--pool has no use with --from-terraform: the state names the records to adopt",
    );
    expect(() => parseOptions(["--from-terraform", "t.tfstate", "--project", "2"])).toThrow("--project and --region go together");
  });
});

describe("the program, from the service's records", () => {
  const apiKey = "unit-terraform-key-31c9";
  let emulator: RunningEmulator;
  let dir: string;
  let stderr: string[];
  beforeAll(async () => {
    emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 50 });
    const seeded = await fetch(`${emulator.url}/__emulator/seed`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(terraformSeed()),
    });
    expect(seeded.status).toBe(204);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cims-import-tf-"));
  });
  afterAll(async () => {
    await emulator.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    stderr = [];
    jest.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderr.push(String(chunk));
      return true;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  const run = async (name: Parameters<typeof tfState>[0], ...flags: string[]) => {
    const out = path.join(dir, `${name}.ts`);
    const code = await main(["--from-terraform", tfState(name), "--out", out, ...flags], {
      CIMS_API_URL: emulator.url,
      CIMS_API_KEY: apiKey,
    });
    return { code, source: code === 0 ? fs.readFileSync(out, "utf8") : "", log: stderr.join("") };
  };
  /** One statement of the module: from `new cims.<type>("<name>"` to its end. */
  const statement = (source: string, type: string, name: string) => {
    const from = source.indexOf(`new cims.${type}(${JSON.stringify(name)}`);
    expect(from).toBeGreaterThanOrEqual(0);
    return source.slice(from, source.indexOf("});", from) + 3);
  };

  test("v1: the pool without members (gcore_lbpool manages none), its public member as an LbPoolMember, all protected", async () => {
    const { code, source, log } = await run("v1");
    expect(code).toBe(0);
    expect(source.match(/^new cims\.\w+/gm)).toEqual([
      "new cims.Subnet",
      "new cims.LbPoolSettings",
      "new cims.SnapshotPolicy",
      "new cims.LbPoolMember",
    ]);
    expect(statement(source, "LbPoolSettings", "pool-web-pool")).not.toContain("members");
    // The policy as a SnapshotPolicy that adopts it, its schedule as the program declares it.
    const policy = statement(source, "SnapshotPolicy", "policy-nightly-snapshots");
    expect(policy).toContain("importId: 101");
    expect(policy).toMatch(/schedules: \[\s*\{\s*type: "cron",/);
    expect(policy).not.toContain("volumeIds");
    expect(source).toContain("// members left out: gcore_lbpool manages no members");
    const member = statement(source, "LbPoolMember", "member-10-0-0-10-8080");
    expect(member).toContain(`poolId: "${V1_POOL.pool}"`);
    expect(member).toContain(`importId: "${V1_POOL.member}"`);
    expect(member).not.toContain("subnetId");
    expect(member).not.toContain("instanceId");
    expect(source.match(/\{ protect: true \}\);$/gm)).toHaveLength(4);
    expect(source).toContain("//   terraform state rm 'gcore_lbmember.public'");
    expect(source).toContain("//   gcore_network.main (gcore_network): a network: pulumi-cims has no Network kind");
    expect(log).toContain("not adopted: data.gcore_image.debian (gcore_image): a data source");
    expect(log).toContain("1 subnet, 1 pool, 1 snapshot policy, 1 pool member: wrote");
    expect((await run("v1", "--no-protect")).source).not.toContain("protect: true");
  });

  test("v2: the pool's members minus its separate members; the image adopted as the service holds it", async () => {
    const { code, source, log } = await run("v2");
    expect(code).toBe(0);
    const pool = statement(source, "LbPoolSettings", "pool-api-pool-v2");
    expect(pool).toContain('address: "10.61.0.12"');
    expect(pool).not.toContain("10.60.0.11");
    expect(pool).not.toContain("203.0.113.10");
    expect(statement(source, "LbPoolMember", "member-203-0-113-10-443")).toContain(`importId: "${TF.memberPublic}"`);
    expect(statement(source, "LbPoolMember", "member-10-60-0-11-8080")).toContain(`subnetId: "${TF.subnetApp}"`);
    // From the service's record: its volume, which the v2 state (an upload's url) does not hold.
    expect(statement(source, "BaremetalImage", "image-golden")).toContain(`volumeId: "${SEED.volumeId}"`);
    expect(source).not.toContain("url:");
    // An image the service holds as an upload is no BaremetalImage (made from a volume): named, not adopted.
    expect(source).not.toContain(`importId: "${TF.imageUploaded}"`);
    expect(log).toContain(
      `not adopted: gcore_cloud_instance_image.uploaded (gcore_cloud_instance_image): the service holds image ${TF.imageUploaded} ` +
        'as made from "url", not from a volume: BaremetalImage manages images made from a volume',
    );
  });

  test("records the service answers 404 for are named with where they were looked for, and no command forgets them; the rest is adopted", async () => {
    const { code, source, log } = await run("gone");
    expect(code).toBe(0);
    expect(log).toContain(
      `gone: module.net.gcore_subnet.old[0] (gcore_subnet): the service answered 404 for subnet ${TF.subnetOld} in project 1, region 1 ` +
        `(GET /cloud/v1/subnets/1/1/${TF.subnetOld}). Check that project and region (the state's project_id and region_id for it, ` +
        "or --project/--region where the state names none) before removing it from Terraform's state: the record may be alive elsewhere.",
    );
    expect(log).toContain(
      `gone: gcore_cloud_load_balancer_pool_member.retired (gcore_cloud_load_balancer_pool_member): the service answered 404 for pool member ${TF.memberGone} in project 1, region 1`,
    );
    // A 404 is no proof the record is gone: neither the report nor the program says to forget it.
    expect(log).not.toContain("state rm 'module.net.gcore_subnet.old[0]'");
    expect(source).not.toContain("state rm 'module.net.gcore_subnet.old[0]'");
    expect(source).not.toContain("state rm 'gcore_cloud_load_balancer_pool_member.retired'");
    const statements = source.split("\n").filter((line) => !line.startsWith("//"));
    expect(statements.join("\n")).not.toContain(TF.subnetOld);
    expect(statements.join("\n")).not.toContain(TF.memberGone);
    expect(source).toContain("// Named by the state, not found where the service was asked (404; not adopted):");
    expect(source.match(/^new cims\.\w+/gm)).toHaveLength(7);
    expect(log).toContain("2 subnets, 1 bare-metal image, 1 pool, 1 snapshot policy, 2 pool members: wrote");
  });

  test("two addresses naming one record (both generations' types): adopted once, and Terraform forgets both", async () => {
    const file = path.join(dir, "twice.tfstate");
    const state = JSON.parse(fs.readFileSync(tfState("mixed"), "utf8"));
    const v1 = state.resources.find((r: { type: string }) => r.type === "gcore_subnet");
    const v2 = state.resources.find((r: { type: string }) => r.type === "gcore_cloud_network_subnet");
    v2.instances[0].attributes.id = v1.instances[0].attributes.id;
    fs.writeFileSync(file, JSON.stringify(state));
    const out = path.join(dir, "twice.ts");
    expect(await main(["--from-terraform", file, "--out", out], { CIMS_API_URL: emulator.url, CIMS_API_KEY: apiKey })).toBe(0);
    const source = fs.readFileSync(out, "utf8");
    expect(source.match(/^new cims\.Subnet\(/gm)).toHaveLength(1);
    expect(source).toContain("//   terraform state rm 'module.net.gcore_subnet.app'");
    expect(source).toContain("//   terraform state rm 'gcore_cloud_network_subnet.db'");
    expect(stderr.join("")).toContain("1 subnet, 1 bare-metal image, 1 pool, 1 snapshot policy, 2 pool members: wrote");
  });

  test("a state naming no scope read in the wrong one (--project, --region): the 404 says where it looked, and to check that first", async () => {
    const file = path.join(dir, "no-scope.tfstate");
    const state = JSON.parse(fs.readFileSync(tfState("v2"), "utf8"));
    state.resources = state.resources.filter((r: { type: string }) => r.type === "gcore_cloud_network_subnet");
    Object.assign(state.resources[0].instances[0].attributes, { project_id: null, region_id: null });
    fs.writeFileSync(file, JSON.stringify(state));
    const out = path.join(dir, "no-scope.ts");
    const env = { CIMS_API_URL: emulator.url, CIMS_API_KEY: apiKey };
    expect(await main(["--from-terraform", file, "--project", "7", "--region", "9", "--out", out], env)).toBe(1);
    const log = stderr.join("");
    expect(log).toContain(
      `gone: gcore_cloud_network_subnet.db (gcore_cloud_network_subnet): the service answered 404 for subnet ${TF.subnetDb} in ` +
        `project 7, region 9 (GET /cloud/v1/subnets/7/9/${TF.subnetDb}). Check that project and region`,
    );
    expect(log).toContain("or --project/--region where the state names none) before removing it from Terraform's state");
    expect(log).not.toContain("terraform state rm");
    expect(log).toContain("(each 404 above says where it was looked for: check that project and region). Nothing was written.");
    expect(fs.existsSync(out)).toBe(false);
    // The same state in the subnet's own scope adopts it.
    expect(await main(["--from-terraform", file, "--project", "1", "--region", "1", "--out", out], env)).toBe(0);
  });

  test("v2: an inline member that some stack's member create made is left out, named with its task; the pool adopts the rest by id (runs last: it remakes a member)", async () => {
    expect(statement((await run("v2")).source, "LbPoolSettings", "pool-api-pool-v2")).toContain(`adoptMembers: ["${TF.memberInline}"]`);
    // The inline member, removed and made again by a member create (another stack's LbPoolMember, say).
    const members = `${emulator.url}/cloud/v1/loadbalancers/1/1/pools/${TF.apiPool}/members`;
    const call = async (method: string, url: string, body?: unknown) =>
      (await fetch(url, {
        method,
        headers: { authorization: `APIKey ${apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json())) as { tasks: string[] };
    const ended = async (task: string) => {
      for (;;) {
        const t = (await fetch(`${emulator.url}/cloud/v1/tasks/${task}`, { headers: { authorization: `APIKey ${apiKey}` } }).then((r) =>
          r.json(),
        )) as { state: string; created_resources?: { members?: string[] } };
        if (t.state === "FINISHED") return t;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await ended((await call("DELETE", `${members}/${TF.memberInline}`)).tasks[0]);
    const made = await ended(
      (await call("POST", members, { address: "10.61.0.12", protocol_port: 8080, subnet_id: TF.subnetDb })).tasks[0],
    );
    const id = made.created_resources!.members![0];

    const { code, source, log } = await run("v2");
    expect(code).toBe(0);
    const pool = statement(source, "LbPoolSettings", "pool-api-pool-v2");
    expect(pool).not.toContain("10.61.0.12");
    expect(pool).not.toContain("adoptMembers");
    expect(source.replace(/\n\/\/ /g, " ")).toMatch(
      new RegExp(`pool ${TF.apiPool}: member\\(s\\) ${id} \\(task [0-9a-f-]{36}\\) were made by a member create`),
    );
    expect(log).toContain(`member(s) ${id} (task `);
  });

  test("a state with nothing the service still has, or no state file: exit 1, nothing written", async () => {
    const file = path.join(dir, "only-gone.tfstate");
    const state = JSON.parse(fs.readFileSync(tfState("gone"), "utf8"));
    state.resources = state.resources.filter((r: { type: string; name: string }) => r.name === "old" || r.name === "retired");
    fs.writeFileSync(file, JSON.stringify(state));
    const out = path.join(dir, "none.ts");
    const code = await main(["--from-terraform", file, "--out", out], { CIMS_API_URL: emulator.url, CIMS_API_KEY: apiKey });
    expect(code).toBe(1);
    expect(stderr.join("")).toContain(
      `nothing to adopt: ${file} names no record of a kind pulumi-cims manages that the service has where it was asked ` +
        "(each 404 above says where it was looked for: check that project and region). Nothing was written.",
    );
    expect(fs.existsSync(out)).toBe(false);
    const missing = path.join(dir, "absent.tfstate");
    expect(await main(["--from-terraform", missing, "--out", out], { CIMS_API_URL: emulator.url, CIMS_API_KEY: apiKey })).toBe(1);
    expect(stderr.join("")).toContain(`cims-import: cannot read ${missing} (`);
    expect(stderr.join("")).toContain("give the file `terraform state pull` writes. Nothing was written.");
    expect(fs.existsSync(out)).toBe(false);
  });
});
