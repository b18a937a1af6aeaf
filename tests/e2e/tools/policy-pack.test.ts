// The shipped policy pack (policy/) through the real engine: `pulumi preview --policy-pack`
// starts it through the Node language host's RunPlugin. A mandatory violation fails the
// preview of a TypeScript program (dynamic face), a YAML and a Python program (plugin face), each
// message naming the rule and the resource; with the pack's defaults the same programs pass
// (TypeScript's and YAML's: one on each face), and an advisory violation is reported without
// failing. And `pulumi policy analyze` of a stack whose refreshed state shows a pool member its
// LbPoolSettings does not declare fails.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, linkPythonVenv, PLUGIN_PROJECT, PYTHON_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { pythonSdkVenv } from "../../support/python-sdk";

const stacks = useStacks();
const PACK = "node_modules/pulumi-cims/policy";

const tsProgram = `import * as cims from "pulumi-cims";
new cims.Subnet("app-net", { name: "app-net", cidr: "10.171.0.0/24", networkId: "${SEED.networkId}", tags: { env: "dev" } });
new cims.BaremetalImage("app-img", { name: "app-img", volumeId: "${SEED.volumeId}" });
`;

const yamlProgram = `${PLUGIN_PROJECT("policy-yaml", "yaml")}resources:
  app-net:
    type: cims:index:Subnet
    properties:
      name: app-net
      cidr: 10.172.0.0/24
      networkId: ${SEED.networkId}
      tags:
        env: dev
  app-img:
    type: cims:index:BaremetalImage
    properties:
      name: app-img
      volumeId: ${SEED.volumeId}
`;

const pyProgram = `import pulumi_cims as cims

cims.Subnet("app-net", name="app-net", cidr="10.175.0.0/24", network_id="${SEED.networkId}", tags={"env": "dev"})
cims.BaremetalImage("app-img", name="app-img", volume_id="${SEED.volumeId}")
`;

const poolProgram = `${PLUGIN_PROJECT("policy-pool", "yaml")}resources:
  web:
    type: cims:index:LbPoolSettings
    properties:
      poolId: ${SEED.poolId}
      membersOwnership: exclusive
      members:
        - address: 10.173.0.10
          protocolPort: 8080
`;
const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;

async function settle(env: CimsTestEnv, taskId: string): Promise<void> {
  for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100))) {
    s = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (s === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

/** A team's config: subnets only in 192.168/16, an `owner` tag on everything, UEFI images a must. */
const strict = {
  "cims-subnet-cidr-allowed": { allowedCidrs: ["192.168.0.0/16"] },
  "cims-required-tags": { requiredTagKeys: ["owner"] },
  "cims-baremetal-image-uefi": { enforcementLevel: "mandatory" },
};

async function previewWithPack(env: CimsTestEnv, config?: object) {
  const args = ["--policy-pack", PACK];
  if (config) {
    const file = path.join(env.stack.root, "policy-config.json");
    await fs.writeFile(file, JSON.stringify(config));
    args.push("--policy-pack-config", file);
  }
  const { code, stdout, stderr } = await env.stack.preview(args, { allowFailure: true });
  return { code, out: stdout + stderr };
}

/**
 * Preview with a team's config fails, naming rule and resource; with the defaults it passes
 * (`defaults`: once a face. What the defaults change is the pack's config, not what a
 * program sends: the failing preview already shows the pack sees the program's CIDR, tags
 * and firmware, and the Python program's resources are the plugin face's, as YAML's are).
 */
async function checkFace(env: CimsTestEnv, cidr: string, defaults = true): Promise<void> {
  const failed = await previewWithPack(env, strict);
  expect(failed.code).not.toBe(0);
  expect(failed.out).toContain(`cims-subnet-cidr-allowed: Subnet "app-net" has cidr ${cidr}, outside every allowed range (192.168.0.0/16)`);
  expect(failed.out).toContain('cims-required-tags: Subnet "app-net" lacks tag key(s) owner');
  expect(failed.out).toContain('cims-required-tags: BaremetalImage "app-img" lacks tag key(s) owner');
  expect(failed.out).toMatch(/\[mandatory\] +cims-subnet-cidr-allowed +\(\S+:Subnet: app-net\)/);
  // The config raised the advisory UEFI rule to mandatory.
  expect(failed.out).toMatch(/\[mandatory\] +cims-baremetal-image-uefi +\(\S+:BaremetalImage: app-img\)/);
  if (!defaults) return;

  // The defaults allow private ranges and require no tag; the image's firmware is advisory only.
  const passed = await previewWithPack(env);
  expect(passed.out).toContain('cims-baremetal-image-uefi: BaremetalImage "app-img" has hwFirmwareType unset, not uefi');
  expect(passed.out).toMatch(/\[advisory\] +cims-baremetal-image-uefi/);
  expect(passed.out).not.toContain("cims-subnet-cidr-allowed:");
  expect(passed.code).toBe(0);
}

/** An exclusive pool's state after a refresh shows another team's member: `policy analyze` says its next change of members removes it. */
async function checkPool(env: CimsTestEnv): Promise<void> {
  const analyze = () => env.stack.run(["policy", "analyze", "--stack", env.stack.name, "--policy-pack", PACK], { allowFailure: true });
  await env.stack.up();
  const clean = await analyze();
  expect(clean.stdout + clean.stderr).not.toContain("cims-lb-pool-keeps-undeclared-members:");
  expect(clean.code).toBe(0);

  const added = await api(env, "PATCH", POOL_PATH, {
    members: [
      { address: "10.173.0.10", protocol_port: 8080 },
      { address: "10.0.0.99", protocol_port: 80 },
    ],
  });
  await settle(env, added.body.tasks[0]);
  await env.stack.refresh();
  const found = await analyze();
  expect(found.stdout + found.stderr).toContain(
    'cims-lb-pool-keeps-undeclared-members: LbPoolSettings "web" owns the pool\'s members exclusively, and the pool holds 10.0.0.99:80, which it does not declare',
  );
  expect(found.code).not.toBe(0);
}

test(
  "the policy pack fails a violating preview on both faces (TypeScript, YAML, Python), names the rule and the resource, passes a compliant one, and finds a pool member its LbPoolSettings would remove",
  async () => {
    const [ts, yaml, py, pool, venv] = await Promise.all([
      stacks.stack({ files: { "Pulumi.yaml": "name: policy-ts\nruntime: nodejs\n", "index.ts": tsProgram } }),
      stacks.stack({ files: { "Pulumi.yaml": yamlProgram } }),
      stacks.stack({ files: { "Pulumi.yaml": PYTHON_PROJECT("policy-py"), "__main__.py": pyProgram } }),
      stacks.stack({ files: { "Pulumi.yaml": poolProgram } }),
      pythonSdkVenv(),
    ]);
    await linkPythonVenv(py.stack, venv);
    await Promise.all([
      checkFace(ts, "10.171.0.0/24"),
      checkFace(yaml, "10.172.0.0/24"),
      checkFace(py, "10.175.0.0/24", false),
      checkPool(pool),
    ]);
  },
  E2E_TIMEOUT_MS,
);
