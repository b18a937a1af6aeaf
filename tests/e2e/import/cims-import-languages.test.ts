// cims-import --language under the real engine, on the plugin face: a Terraform state's records
// (tests/fixtures/terraform/gone.tfstate: subnets, an image, a pool with inline and separate
// members, a policy) written as YAML (Main.yaml beside the project's Pulumi.yaml), and what a
// project and region hold (a subnet and an image made by hand, the seed's pool, policy and
// quota threshold) written as Python (__main__.py, the pulumi_cims SDK); the state's records
// again as Go (main.go on the SDK gen-sdk writes, built offline). Each program's first
// `up` adopts every record with no write (no POST, PATCH, PUT or DELETE), then
// `preview --expect-no-changes` passes, still with no write.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, linkPythonVenv, PLUGIN_PROJECT, PYTHON_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { cimsImport } from "../../support/cims-import";
import { GO_ENV, goModule, SDK_MODULE } from "../../support/go";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";
import { pythonSdkVenv } from "../../support/python-sdk";
import { imageRecord, subnetRecord } from "../../support/records";
import { GONE_ADOPTED, terraformSeed, tfState } from "../../support/terraform";

const SUBNET = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const IMAGE = "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";

const stacks = useStacks();

/** The first up writes nothing and the stack holds exactly `expected` (`<Kind> <id>`), all protected; then no changes. */
async function adoptsWithoutWrites(env: CimsTestEnv, expected: string[]): Promise<void> {
  env.emulator.metrics.reset();
  await env.stack.up();
  expect(writes(env)).toEqual([]);
  const resources = ((await env.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.startsWith("cims:index:"));
  expect(resources.map((r) => `${r.type.split(":").pop()} ${r.id}`).sort()).toEqual([...expected].sort());
  expect(resources.filter((r) => !("protect" in r && r.protect === true))).toEqual([]);
  await env.stack.preview(["--expect-no-changes"]);
  expect(writes(env)).toEqual([]);
}

test(
  "--from-terraform --language yaml: Main.yaml adopts every record the state names with no write, then no changes",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("from-terraform-yaml", "yaml") } });
    expect((await api(env, "POST", "/__emulator/seed", terraformSeed())).status).toBe(204);
    const program = path.join(env.stack.projectDir, "Main.yaml");
    const written = await cimsImport(["--from-terraform", tfState("gone"), "--language", "yaml", "--out", program], env);
    expect(written.code).toBe(0);
    const source = await fs.readFile(program, "utf8");
    expect(source).toContain("#   terraform state rm 'module.net.gcore_subnet.app'");
    expect(source).toContain("    type: cims:index:LbPoolMember\n");

    await adoptsWithoutWrites(env, GONE_ADOPTED);
  },
  E2E_TIMEOUT_MS,
);

test(
  "--language python: __main__.py adopts what the project and region hold with no write, then no changes",
  async () => {
    const [venv, env] = await Promise.all([
      pythonSdkVenv(),
      stacks.stack({ files: { "Pulumi.yaml": PYTHON_PROJECT("imported-python", { toolchain: "pip" }) } }),
    ]);
    await linkPythonVenv(env.stack, venv);
    const seeded = await api(env, "POST", "/__emulator/seed", {
      subnets: [subnetRecord({ id: SUBNET, name: "Legacy (prod)", gateway_ip: null, tags: { team: "net", "cost center": "42" } })],
      images: [imageRecord({ id: IMAGE, hw_firmware_type: "uefi", tags: { os: "debian" } })],
    });
    expect(seeded.status).toBe(204);
    const program = path.join(env.stack.projectDir, "__main__.py");
    const args = ["--project", "1", "--region", "1", "--pool", SEED.poolId, "--policy", SEED.policyId, "--client", SEED.clientId];
    const written = await cimsImport([...args, "--language", "python", "--out", program], env);
    expect(written.code).toBe(0);
    expect(await fs.readFile(program, "utf8")).toContain("import pulumi_cims as cims\n");

    const subnets = env.emulator.store
      .list("subnets")
      .filter((s) => s.project_id === 1 && s.region_id === 1)
      .map((s) => `Subnet ${String(s.id)}`);
    await adoptsWithoutWrites(env, [
      ...subnets,
      `BaremetalImage ${IMAGE}`,
      `LbPoolSettings ${SEED.poolId}`,
      `SnapshotPolicyState ${SEED.policyId}`,
      `QuotaThreshold ${SEED.clientId}`,
    ]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "--from-terraform --language go: main.go on the generated Go SDK adopts every record the state names with no write, then no changes",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("from-terraform-go", "go") }, env: GO_ENV });
    expect((await api(env, "POST", "/__emulator/seed", terraformSeed())).status).toBe(204);
    const sdk = path.join(env.stack.root, "sdk");
    await env.stack.run(["package", "gen-sdk", path.join(REPO_ROOT, "schema.json"), "--language", "go", "-o", sdk]);
    const written = await cimsImport(["--from-terraform", tfState("gone"), "--language", "go"], env);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`\t"${SDK_MODULE}/go/cims"\n`);
    await goModule(env.stack.projectDir, sdk, written.stdout);

    await adoptsWithoutWrites(env, GONE_ADOPTED);
  },
  E2E_TIMEOUT_MS,
);
