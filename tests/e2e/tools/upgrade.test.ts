// Upgrade safety: a stack deployed with an OLD pulumi-cims keeps working with the current one.
//
// Pulumi stores each resource's serialized dynamic provider in the state, and ours is
// `require("pulumi-cims/provider/resources/install").install(this, "<Kind>", req)`: every
// existing stack loads whatever pulumi-cims is installed next to the program through that
// package path, with that signature and those kind names, and hands it the inputs and
// outputs in the shape the old version wrote. So that path and the state's shape must keep
// working across versions.
//
// This test deploys tests/fixtures/upgrade/index.ts (all five resources, with non-trivial
// arguments) with the package as it was at fb77119 (tests/fixtures/upgrade/
// pulumi-cims-0.1.0-fb77119.tgz, installed from the tarball as a user would), swaps the
// installed package for this checkout, and then, with the current code: `preview
// --expect-no-changes`, `refresh` (every resource still in the state, same ids), `preview
// --expect-no-changes` again, and `destroy`. The emulator's own records and request counts
// show that nothing was created twice and that preview and refresh wrote nothing.
//
// Both releases come from one `npm install` of their tarballs (the second under another name),
// and each stack's project holds a copy of its own release beside links to the rest of that
// install: the Pulumi SDK and the compiler are the same for both, and an install is about 8 s
// of CPU.
//
// The second test does the same from the package at 69506b3 (pulumi-cims-0.1.0-69506b3.tgz:
// its dist/api and dist/provider, as npm installs them), whose resources hold a serialized
// closure as their provider where the current package writes a short text: the engine's
// dynamic-provider host never compares the two, so the state it wrote ups with no changes and
// no write, and previews with none after.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { subnetShim } from "../../../provider/resources/shim";
import { E2E_TIMEOUT_MS, REPO_ROOT, runCommand, type StackExport } from "../../support/harness";

const FIXTURE_DIR = path.join(REPO_ROOT, "tests/fixtures/upgrade");
const OLD_TARBALL = path.join(FIXTURE_DIR, "pulumi-cims-0.1.0-fb77119.tgz");
const CLOSURE_TARBALL = path.join(FIXTURE_DIR, "pulumi-cims-0.1.0-69506b3.tgz");
// Echo: the test-only resource of `pulumi-cims/testing`, whose state names the same door.
const KINDS = ["BaremetalImage", "Echo", "LbPoolSettings", "QuotaThreshold", "SnapshotPolicyState", "Subnet"];
const cimsType = (kind: string) => `pulumi-nodejs:dynamic/cims:${kind}`;

const stacks = useStacks();

type Resources = NonNullable<StackExport["deployment"]["resources"]>;

/** The CIMS resources of the state by type: their ids. */
function cimsIds(resources: Resources): Record<string, string | undefined> {
  return Object.fromEntries(resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/cims:")).map((r) => [r.type, r.id]));
}

/** Request counts (method, route, status) the emulator answered since `before`. */
function requestsSince(env: CimsTestEnv, before: Record<string, number>): Record<string, number> {
  const now = env.emulator.metrics.snapshot().requests;
  return Object.fromEntries(
    Object.entries(now)
      .map(([k, n]) => [k, n - (before[k] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}

const writes = (requests: Record<string, number>) => Object.keys(requests).filter((k) => /^(POST|PATCH|PUT|DELETE) /.test(k));
const failures = (requests: Record<string, number>) => Object.keys(requests).filter((k) => !/ 2\d\d$/.test(k));

/** Where `require("pulumi-cims/provider/resources/install")` lands from the program's directory. */
async function installDoor(projectDir: string): Promise<string> {
  const { stdout } = await runCommand("node", ["-p", 'require.resolve("pulumi-cims/provider/resources/install")'], process.env, {
    cwd: projectDir,
  });
  return stdout.trim();
}

/** The name each release is installed under in the shared install: the key of its tarball's dependency. */
const RELEASES = new Map([
  [OLD_TARBALL, "pulumi-cims"],
  [CLOSURE_TARBALL, "pulumi-cims-closure"],
]);

let shared: Promise<string> | undefined;

/**
 * One `npm install` of both releases, from their tarballs as a user installs them, with the
 * Pulumi SDK and TypeScript: an install costs about 8 s of CPU, and the two projects need the
 * same SDK and compiler, so they share them (the second release under another name).
 */
function sharedInstall(): Promise<string> {
  shared ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-upgrade-"));
    const pkg = {
      name: "upgrade-consumers",
      private: true,
      dependencies: {
        ...Object.fromEntries([...RELEASES].map(([tarball, name]) => [name, `file:${tarball}`])),
        "@pulumi/pulumi": "3.248.0",
      },
      devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43" },
    };
    await fs.writeFile(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    await runCommand("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], process.env, { cwd: dir });
    return dir;
  })();
  return shared;
}

afterAll(async () => {
  if (shared) await fs.rm(await shared, { recursive: true, force: true });
});

/**
 * A user's project of the fixture program (`edit` applied) on the release in `tarball`: that
 * release's installed package copied in as `node_modules/pulumi-cims` (a directory of its own,
 * which the upgrade replaces), everything else of the shared install linked.
 */
async function consumer(tarball: string, edit = (program: string) => program): Promise<CimsTestEnv> {
  const env = await stacks.stack({
    nodeModules: null,
    files: {
      "Pulumi.yaml": "name: upgrade-e2e\nruntime: nodejs\n",
      "index.ts": edit(await fs.readFile(path.join(FIXTURE_DIR, "index.ts"), "utf8")),
    },
    config: { networkId: SEED.networkId, volumeId: SEED.volumeId, poolId: SEED.poolId, policyId: SEED.policyId, clientId: SEED.clientId },
  });
  const from = path.join(await sharedInstall(), "node_modules");
  const to = path.join(env.stack.projectDir, "node_modules");
  await fs.mkdir(to);
  for (const entry of await fs.readdir(from)) {
    if (![...RELEASES.values()].includes(entry)) await fs.symlink(path.join(from, entry), path.join(to, entry), "dir");
  }
  await fs.cp(path.join(from, RELEASES.get(tarball) ?? tarball), path.join(to, "pulumi-cims"), { recursive: true });
  return env;
}

/** The installed release swapped for this checkout (built by pretest), as an upgrade leaves it. */
async function upgrade(projectDir: string): Promise<void> {
  const installed = path.join(projectDir, "node_modules/pulumi-cims");
  await fs.rm(installed, { recursive: true, force: true });
  await fs.symlink(REPO_ROOT, installed, "dir");
  expect(await installDoor(projectDir)).toBe(path.join(REPO_ROOT, "dist/provider/resources/install.js"));
}

test(
  "a stack deployed with pulumi-cims at fb77119 previews with no changes, refreshes and destroys with the current package",
  async () => {
    const env = await consumer(OLD_TARBALL);
    const { stack, emulator } = env;
    const store = emulator.store;
    const installed = path.join(stack.projectDir, "node_modules/pulumi-cims");
    expect((await fs.lstat(installed)).isSymbolicLink()).toBe(false);
    // It is the old layout (everything under dist/provider/resources/), not this checkout's.
    await expect(fs.access(path.join(installed, "dist/provider/resources/ops.js"))).resolves.toBeUndefined();
    await expect(fs.access(path.join(installed, "dist/provider/methods"))).rejects.toThrow();
    expect(await installDoor(stack.projectDir)).toBe(path.join(installed, "dist/provider/resources/install.js"));

    // --- up with the OLD package ---
    await stack.up();
    const out = await stack.outputs();
    expect(out.subnetId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.imageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.imageStatus).toBe("active");
    expect(out.policyStatus).toBe("paused");
    expect(out.quotaThreshold).toBe(70);
    expect(out.projectCountLimit).toBe("9223372036854775807");
    expect(out.projectCountUsage).toBe("9007199254740993");
    expect(out.echoLength).toBe("state from 0.1.0".length);

    const [subnet] = store.list("subnets");
    expect(store.list("subnets")).toHaveLength(1);
    expect(subnet).toMatchObject({
      id: out.subnetId,
      name: "upgrade-subnet",
      cidr: "10.40.0.0/24",
      enable_dhcp: false,
      dns_nameservers: ["10.40.0.2", "10.40.0.3"],
      host_routes: [
        { destination: "10.50.0.0/24", nexthop: "10.40.0.254" },
        { destination: "192.168.10.0/24", nexthop: "10.40.0.253" },
      ],
    });
    expect(store.list("images")).toHaveLength(1);
    expect(store.list("images")[0]).toMatchObject({
      id: out.imageId,
      name: "upgrade-image",
      hw_firmware_type: "uefi",
      hw_machine_type: "q35",
    });
    const pool = store.get("lbpools", SEED.poolId);
    expect(pool).toMatchObject({ name: "upgrade-pool", lb_algorithm: "LEAST_CONNECTIONS", timeout_member_connect: 3000 });
    expect(pool?.healthmonitor).toMatchObject({ type: "HTTP", url_path: "/healthz", expected_codes: "200-204" });
    expect(pool?.members).toEqual([
      expect.objectContaining({ id: SEED.keptMemberId, address: "10.0.0.10" }),
      expect.objectContaining({ address: "10.40.0.10", weight: 3, subnet_id: out.subnetId }),
    ]);
    expect(store.get("lifecycle_policies", SEED.policyId)).toMatchObject({ name: "upgrade-nightly", status: "paused" });
    type Entry = { limit: unknown; usage: unknown };
    const quota = store.get("client_quotas", SEED.clientId) as {
      threshold: number;
      last_message: { global_quotas: Record<string, Entry> };
    };
    expect(quota.threshold).toBe(70);
    expect(String(quota.last_message.global_quotas.project_count_limit.limit)).toBe("9223372036854775807");
    expect(String(quota.last_message.global_quotas.project_count_limit.usage)).toBe("9007199254740993");

    // The state the old version wrote: each resource's provider enters through the frozen door.
    const oldState = (await stack.exportState()).deployment.resources ?? [];
    const ids = cimsIds(oldState);
    expect(Object.keys(ids).sort()).toEqual(KINDS.map(cimsType));
    for (const kind of KINDS) {
      const r = oldState.find((x) => x.type === cimsType(kind));
      expect(r?.inputs?.__provider).toContain(`require("pulumi-cims/provider/resources/install").install(this, "${kind}", req)`);
    }
    expect(ids[cimsType("Subnet")]).toBe(out.subnetId);
    expect(ids[cimsType("BaremetalImage")]).toBe(out.imageId);

    // --- swap in the CURRENT package: a link to this checkout (built by pretest) ---
    await upgrade(stack.projectDir);
    await expect(fs.access(path.join(REPO_ROOT, "dist/provider/methods/install.js"))).resolves.toBeUndefined();

    // --- preview: nothing to do but the image's tags, and nothing written ---
    // The old release read an image's tags from `tags`; the service's image records carry them
    // as `tags_v2`, so it recorded none, and the current package sees the program's
    // tags as a change. Everything else is as the old package left it.
    let before = emulator.metrics.snapshot().requests;
    expect(oldState.find((r) => r.type === cimsType("BaremetalImage"))?.outputs?.tags).toEqual({});
    const first = await stack.preview(["--diff"]);
    expect(first.stdout).toMatch(/~ 1 to update/);
    expect(first.stdout).toMatch(/~ pulumi-nodejs:dynamic\/cims:BaremetalImage: \(update\)/);
    let requests = requestsSince(env, before);
    expect(writes(requests)).toEqual([]);
    expect(failures(requests)).toEqual([]);

    // --- refresh: every resource stays, with its id; reads only ---
    before = emulator.metrics.snapshot().requests;
    await stack.refresh();
    requests = requestsSince(env, before);
    expect(writes(requests)).toEqual([]);
    expect(failures(requests)).toEqual([]);
    // It did read each resource from the service (subnets and images through their scope's list).
    const reads = Object.keys(requests).filter((k) => k.startsWith("GET "));
    for (const route of ["/subnets/", "/bmimages/", "/lbpools/", "/lifecycle_policy/", "/notification_threshold"]) {
      expect(reads.filter((k) => k.includes(route))).not.toEqual([]);
    }
    const refreshed = (await stack.exportState()).deployment.resources ?? [];
    expect(cimsIds(refreshed)).toEqual(ids);
    expect(refreshed.map((r) => r.urn).sort()).toEqual(oldState.map((r) => r.urn).sort());

    // --- preview again: nothing to do (the refresh read the image's tags from tags_v2) ---
    before = emulator.metrics.snapshot().requests;
    await stack.preview(["--expect-no-changes"]);
    requests = requestsSince(env, before);
    expect(writes(requests)).toEqual([]);
    expect(failures(requests)).toEqual([]);

    // Nothing was created twice, at any step.
    expect(store.list("subnets").map((s) => s.id)).toEqual([out.subnetId]);
    expect(store.list("images").map((i) => i.id)).toEqual([out.imageId]);
    const all = emulator.metrics.snapshot().requests;
    const posts = (route: string) => Object.entries(all).filter(([k]) => k.startsWith(`POST /cloud/v1/${route}/`));
    expect(posts("subnets")).toEqual([["POST /cloud/v1/subnets/:project_id/:region_id 200", 1]]);
    expect(posts("bmimages")).toEqual([["POST /cloud/v1/bmimages/:project_id/:region_id 200", 1]]);

    // --- destroy with the current package ---
    await stack.destroy();
    expect((await stack.exportState()).deployment.resources ?? []).toHaveLength(0);
    expect(store.list("subnets")).toHaveLength(0);
    expect(store.list("images")).toHaveLength(0);
    // The pool stays with its settings; the members this state holds leave it (a state from
    // before the stack recorded its declared members: the members it holds), so the subnet could go.
    expect(store.get("lbpools", SEED.poolId)).toMatchObject({ name: "upgrade-pool", members: [] });
    expect(store.get("client_quotas", SEED.clientId)?.threshold).toBe(80); // reset by DELETE
  },
  E2E_TIMEOUT_MS,
);

test(
  "a stack deployed with pulumi-cims at 69506b3 (a serialized closure as each provider) previews and ups with no changes and no write with the current package",
  async () => {
    // Since fb77119 a stack takes no member it did not make: the seeded one is left out.
    const seeded = '    { address: "10.0.0.10", protocolPort: 8080 }, // the seeded member: kept, with its id\n';
    const env = await consumer(CLOSURE_TARBALL, (program) => {
      expect(program).toContain(seeded);
      return program.replace(seeded, "");
    });
    const { stack, emulator } = env;
    const store = emulator.store;
    await stack.up();
    const out = await stack.outputs();
    const written = (await stack.exportState()).deployment.resources ?? [];
    const ids = cimsIds(written);
    expect(Object.keys(ids).sort()).toEqual(KINDS.map(cimsType));
    // What that release stored: the closure serializer's text, kept in the inputs and the outputs.
    for (const kind of KINDS.filter((k) => k !== "Echo")) {
      const r = written.find((x) => x.type === cimsType(kind));
      expect(r?.inputs?.__provider).toMatch(/^exports\.handler = __f0;/);
      expect(r?.outputs?.__provider).toBe(r?.inputs?.__provider);
    }

    await upgrade(stack.projectDir);

    // --- up: no change, no write, no replacement ---
    // No preview first: `up --expect-no-changes` diffs every resource against the closure's
    // state as the preview would and fails on any change, and the preview after it runs on
    // the state the up rewrote, whose inputs hold the short text.
    const before = emulator.metrics.snapshot().requests;
    await stack.up(["--expect-no-changes"]);
    const requests = requestsSince(env, before);
    expect(writes(requests)).toEqual([]);
    expect(failures(requests)).toEqual([]);
    const after = (await stack.exportState()).deployment.resources ?? [];
    expect(cimsIds(after)).toEqual(ids);
    // The up recorded the program's inputs, the short text among them; the outputs keep the
    // text they were written with until an operation writes them.
    const subnet = after.find((x) => x.type === cimsType("Subnet"));
    expect(subnet?.inputs?.__provider).toBe(subnetShim);
    expect(subnet?.outputs?.__provider).toMatch(/^exports\.handler = __f0;/);
    await stack.preview(["--expect-no-changes"]);
    expect(store.list("subnets").map((x) => x.id)).toEqual([out.subnetId]);
    expect(store.list("images").map((x) => x.id)).toEqual([out.imageId]);

    await stack.destroy();
    expect(store.list("subnets")).toHaveLength(0);
    expect(store.list("images")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);
