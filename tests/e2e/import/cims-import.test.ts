// cims-import under the real engine: an emulator holding subnets and an image Pulumi never
// made (an IPv6 one with host routes, a gateway-less one), plus the demo seed's pool, policy
// and threshold; the built CLI writes a program; on a fresh stack the first `pulumi up`
// makes no write (no POST, PATCH, PUT or DELETE) and preview (without a warning) and refresh
// find no changes.
// The emulator answers at most one record per list page (a service may cap pages below the
// `limit` asked): every record is still imported. The quota threshold is adopted by its
// threshold only: a newer `last_sending` the service records later, and a quota member the
// contract does not know, stay the service's (no PUT). Also: the same records give the same
// module, a refused key and an empty scope are clear errors that write nothing and never print the key.
// The pool holds a member an LbPoolMember made (a create_lbmember task names it): the pool's
// program leaves `members` out, saying why, so its first preview passes. Every resource is
// protected: destroy fails naming protect, and deletes nothing; written with --no-protect, the
// same stack destroys, leaving the subnets and the image it adopted by importId in the service.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "pulumi-cims/emulator";
import { api, type CimsTestEnv, SEED, SEED_FILE, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT, runCommand, type RunResult } from "../../support/harness";

const CLI = path.join(REPO_ROOT, "dist/provider/import/cli.js");
const V6_ID = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const NOGW_ID = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const IMAGE_ID = "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";
const TASK = "0f0e0d0c-0b0a-4908-8706-050403020100";
const INSTANCE = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
const ts = "2026-05-23T05:07:31";

const tags = (mine: Record<string, string>) => [
  ...Object.entries(mine).map(([key, value]) => ({ key, value, read_only: false })),
  { key: "creator_task_id", value: TASK, read_only: true },
];

const subnetRecord = (r: Record<string, unknown>) => ({
  enable_dhcp: true,
  dns_nameservers: [],
  host_routes: [],
  has_router: false,
  creator_task_id: TASK,
  task_id: null,
  project_id: 1,
  region_id: 1,
  created_at: ts,
  updated_at: ts,
  network_id: SEED.networkId,
  ...r,
});

/** Records as the service holds them, made by hand (or another tool), not by any stack. */
const seed = {
  subnets: [
    subnetRecord({
      id: V6_ID,
      name: "Legacy v6 (prod)",
      cidr: "2001:db8:10::/64",
      ip_version: 6,
      gateway_ip: "2001:db8:10::1",
      dns_nameservers: ["2001:4860:4860::8888"],
      host_routes: [
        { destination: "2001:db8:20::/64", nexthop: "2001:db8:10::2" },
        { destination: "2001:db8:30::/64", nexthop: "2001:db8:10::3" },
      ],
      // Exact past 2^64, as the service says them (see seedBody).
      total_ips: "18446744073709551616",
      available_ips: "18446744073709551615",
      tags: tags({ team: "net", "cost center": "42" }),
    }),
    subnetRecord({
      id: NOGW_ID,
      name: "isolated",
      cidr: "10.70.0.0/24",
      ip_version: 4,
      enable_dhcp: false,
      gateway_ip: null,
      total_ips: 256,
      available_ips: 256,
      tags: tags({}),
    }),
  ],
  images: [
    {
      id: IMAGE_ID,
      name: "golden",
      volume_id: SEED.volumeId,
      architecture: "x86_64",
      hw_firmware_type: "uefi",
      hw_machine_type: "i440", // the vendor's spelling of the spec's pc: adopted as it is
      is_baremetal: true,
      os_type: "linux",
      source: "volume",
      ssh_key: "required",
      status: "active",
      visibility: "private",
      disk_format: "raw",
      min_disk: 20,
      size: 21474836480,
      // The vendor's image record: tags as tags_v2, and what it says of the OS and region.
      tags_v2: tags({ os: "debian" }),
      os_distro: "debian",
      os_version: "12",
      min_ram: 0,
      region: "Luxembourg",
      creator_task_id: TASK,
      task_id: null,
      project_id: 1,
      region_id: 1,
      created_at: ts,
      updated_at: ts,
    },
  ],
};

/** Client 1's quota setting, with a quota member the contract does not know (a newer service's). */
const quotaSetting = (lastSending: string) => ({
  client_id: 1,
  threshold: 80,
  last_message: {
    global_quotas: {
      keypair_count_limit: { limit: 100, usage: 12 },
      gpu_virtual_b300_count_limit: { limit: 8, usage: 2 },
    },
    regional_quotas: [{ region_id: 1, region_name: "Luxembourg", subnet_count_limit: { limit: 100, usage: 2 } }],
  },
  last_sending: lastSending,
});

/** The seed as JSON, the IPv6 subnet's address counts as exact integers (JSON.stringify has no bigint). */
const seedBody = (extra: object = {}) =>
  JSON.stringify({ ...seed, client_quotas: [quotaSetting(ts)], ...extra }).replace(/"(total_ips|available_ips)":"(\d+)"/g, '"$1":$2');
const postSeed = (e: CimsTestEnv, body: string) =>
  fetch(`${e.emulator.url}/__emulator/seed`, { method: "POST", headers: { "content-type": "application/json" }, body });

/** A member added to the seed's pool one by one (as an LbPoolMember does): its id, once its task ended. */
async function memberMadeAlone(e: CimsTestEnv): Promise<string> {
  const path = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
  const posted = await api(e, "POST", path, { address: "10.0.0.40", protocol_port: 8080, instance_id: INSTANCE });
  expect(posted.status).toBe(200);
  for (;;) {
    const task = (await api(e, "GET", `/cloud/v1/tasks/${posted.body.tasks[0]}`)).body;
    if (task.state === "FINISHED") return task.created_resources.members[0];
    expect(task.state).not.toBe("ERROR");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The built CLI, with the key and URL in the environment as users give them. */
function cimsImport(args: string[], env: { url: string; key: string }): Promise<RunResult> {
  const { PATH, HOME } = process.env;
  return runCommand("node", [CLI, ...args], { PATH, HOME, CIMS_API_URL: env.url, CIMS_API_KEY: env.key }, { allowFailure: true });
}

const IMPORT_ARGS = [
  "--project",
  "1",
  "--region",
  "1",
  "--network",
  SEED.networkId,
  "--pool",
  SEED.poolId,
  "--policy",
  SEED.policyId,
  "--client",
  SEED.clientId,
];

const stacks = useStacks();

test(
  "the imported program adopts everything: the first up makes no write, then preview and refresh find no changes",
  async () => {
    // A package.json, as a user's project has: without one the engine warns on every run.
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: imported\nruntime: nodejs\n", "package.json": '{ "name": "imported" }\n' },
      emulator: { pageSizeMax: 1 },
    });
    expect((await postSeed(env, seedBody({ instances: [{ id: INSTANCE, name: "web-1", project_id: 1, region_id: 1 }] }))).status).toBe(204);
    const alone = await memberMadeAlone(env);
    const access = { url: env.emulator.url, key: env.apiKey };
    const program = path.join(env.stack.projectDir, "index.ts");

    // Two runs over the same records: the same module, byte for byte (names are stable).
    const first = await cimsImport([...IMPORT_ARGS, "--out", program], access);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("cims-import: project 1, region 1: 2 subnets, 1 bare-metal image");
    expect(first.stderr).toContain("2 subnets, 1 bare-metal image, 1 pool, 0 snapshot policies, 1 policy, 1 quota threshold: wrote");
    expect(first.stderr).not.toContain(env.apiKey);
    expect(first.stdout).toBe("");
    const again = await cimsImport(IMPORT_ARGS, access);
    expect(again.code).toBe(0);
    const source = await fs.readFile(program, "utf8");
    expect(again.stdout).toBe(source);

    expect(source).toContain('import * as cims from "pulumi-cims";');
    expect(source).toContain('new cims.Subnet("subnet-legacy-v6-prod", {');
    expect(source).toContain('new cims.Subnet("subnet-isolated", {');
    expect(source).toContain("connectToNetworkRouter: false");
    expect(source).toContain('new cims.BaremetalImage("image-golden", {');
    expect(source).toContain('tags: { os: "debian" }'); // read from the record's tags_v2
    expect(source).toContain('hwMachineType: "i440"');
    expect(source).toContain('new cims.LbPoolSettings("pool-web-pool", {');
    // The member a member create made is some stack's own: left out, and the program says why;
    // the seeded one is written, adopted on purpose by its id.
    const poolStatement = source.slice(source.indexOf('new cims.LbPoolSettings("pool-web-pool"'));
    const poolArgs = poolStatement.slice(0, poolStatement.indexOf("});"));
    expect(poolArgs).toContain('members: [{ address: "10.0.0.10", protocolPort: 8080, weight: 1, adminStateUp: true, backup: false }]');
    expect(poolArgs).toContain(`adoptMembers: ["${SEED.keptMemberId}"]`);
    expect(poolArgs).not.toContain(alone);
    const comment = source.slice(
      source.indexOf(`// pool ${SEED.poolId}: member(s)`),
      source.indexOf('new cims.LbPoolSettings("pool-web-pool"'),
    );
    expect(comment.replace(/\n\/\/ /g, " ")).toContain(`// pool ${SEED.poolId}: member(s) ${alone} (task `);
    expect(source.match(/^new cims\./gm)).toHaveLength(source.match(/^}, \{ protect: true \}\);$/gm)?.length ?? 0);
    expect(source).toContain('new cims.SnapshotPolicyState("policy-nightly-snapshots", {');
    expect(source).toContain('new cims.QuotaThreshold("quota-threshold-client-1", {');
    expect(source).not.toContain("lastMessage");
    expect(source).not.toContain("lastSending");
    expect(source).not.toContain("creator_task_id");
    expect(source).not.toContain(env.apiKey);

    env.emulator.metrics.reset();
    // The first preview passes (listing the member a member create made, the pool's check would refuse it).
    await env.stack.preview();
    await env.stack.up();
    expect(writes(env)).toEqual([]);
    const resources = ((await env.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.includes("dynamic/cims:"));
    expect(resources.map((r) => `${r.type.split(":").pop()} ${r.id}`).sort()).toEqual(
      [
        `BaremetalImage ${IMAGE_ID}`,
        `LbPoolSettings ${SEED.poolId}`,
        `QuotaThreshold ${SEED.clientId}`,
        `SnapshotPolicyState ${SEED.policyId}`,
        `Subnet ${NOGW_ID}`,
        `Subnet ${V6_ID}`,
      ].sort(),
    );
    expect(env.emulator.store.list("subnets")).toHaveLength(2);
    expect(env.emulator.store.list("images")).toHaveLength(1);

    // No changes and nothing to say: no warning, no argument "removed from the program".
    const preview = await env.stack.preview(["--expect-no-changes", "--diff", "--color", "never"]);
    expect(preview.stdout + preview.stderr).not.toMatch(/warning|removed from the program/i);
    await env.stack.refresh(["--expect-no-changes"]);
    expect(writes(env)).toEqual([]);

    // The service sends its next e-mail: a newer last_sending. The stack leaves it be.
    const later = "2026-06-01T08:00:00";
    expect((await postSeed(env, JSON.stringify({ client_quotas: [quotaSetting(later)] }))).status).toBe(204);
    await env.stack.refresh();
    await env.stack.up(["--expect-no-changes"]);
    expect(writes(env)).toEqual([]);
    expect(env.emulator.store.get("client_quotas", 1)).toMatchObject({
      last_sending: later,
      last_message: { global_quotas: { gpu_virtual_b300_count_limit: { limit: 8, usage: 2 } } },
    });

    // Protected: destroy fails naming protect, and nothing is deleted or reset.
    const refused = await env.stack.destroy([], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/protect/);
    expect(writes(env)).toEqual([]);
    // Written with --no-protect: the same stack takes it (no write), then destroys.
    expect((await cimsImport([...IMPORT_ARGS, "--no-protect", "--out", program], access)).code).toBe(0);
    expect(await fs.readFile(program, "utf8")).not.toContain("protect: true");
    await env.stack.up();
    expect(writes(env)).toEqual([]);
    // What it adopted by importId is left in the service, each said; deleteAdopted would delete it.
    const destroyed = await env.stack.destroy();
    expect(writes(env).filter((w) => /^DELETE \/cloud\/v1\/(subnets|images)/.test(w))).toEqual([]);
    expect(env.emulator.store.list("subnets")).toHaveLength(2);
    expect(env.emulator.store.list("images")).toHaveLength(1);
    expect(destroyed.stdout).toContain(`subnet ${V6_ID} left in the service, not deleted: the resource adopted it`);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a refused key and an empty scope are clear errors: exit 1, nothing written, the key never printed",
  async () => {
    const apiKey = "e2e-import-good-key-5f1e";
    const emulator = await startEmulator({ apiKey, seed: SEED_FILE, taskDurationMs: 300 });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "cims-import-e2e-"));
    try {
      const out = path.join(dir, "index.ts");
      const badKey = "e2e-import-wrong-key-77c3";
      const refused = await cimsImport(["--project", "1", "--region", "1", "--out", out], { url: emulator.url, key: badKey });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("the key was refused");
      expect(refused.stderr + refused.stdout).not.toContain(badKey);
      // Given as a flag instead: refused just the same, and still never printed.
      const flagged = await runCommand(
        "node",
        [CLI, "--project", "1", "--region", "1", "--api-url", emulator.url, "--api-key", badKey],
        { PATH: process.env.PATH },
        { allowFailure: true },
      );
      expect(flagged.code).toBe(1);
      expect(flagged.stderr).toContain("the key was refused");
      expect(flagged.stderr + flagged.stdout).not.toContain(badKey);

      const empty = await cimsImport(["--project", "9", "--region", "1", "--out", out], { url: emulator.url, key: apiKey });
      expect(empty.code).toBe(1);
      expect(empty.stderr).toContain(
        "nothing to import: searched project 9, region 1 for subnets, bare-metal images and snapshot policies",
      );
      expect(empty.stderr).toContain(
        "holds no subnets, bare-metal images, load balancer pools or snapshot policies: is it an unknown project or region?",
      );
      expect(empty.stderr).not.toContain(apiKey);

      // A named pool in an unknown scope: the 404 is named, with the same hint.
      const missing = await cimsImport(["--project", "9", "--region", "1", "--pool", SEED.poolId, "--out", out], {
        url: emulator.url,
        key: apiKey,
      });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`pool ${SEED.poolId}: not found in project 9, region 1`);
      expect(missing.stderr).toContain("is it an unknown project or region?");

      await expect(fs.access(out)).rejects.toThrow();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
      await emulator.close();
    }
  },
  E2E_TIMEOUT_MS,
);
