// The shipped policy pack (policy/) through the real engine: `pulumi preview --policy-pack`
// starts it through the Node language host's RunPlugin. A mandatory violation fails the
// preview of a TypeScript program (dynamic face) and of a YAML program (plugin face), each
// message naming the rule and the resource; with the pack's defaults the same programs pass,
// and an advisory violation is reported without failing.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { type CimsTestEnv, PLUGIN_PROJECT, SEED, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS } from "../support/harness";

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

/** A team's config: subnets only in 192.168/16, an `owner` tag on everything. */
const strict = {
  "cims-subnet-cidr-allowed": { allowedCidrs: ["192.168.0.0/16"] },
  "cims-required-tags": { requiredTagKeys: ["owner"] },
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

test(
  "the policy pack fails a violating preview on both faces, names the rule and the resource, and passes a compliant one",
  async () => {
    const [ts, yaml] = await Promise.all([
      stacks.stack({ files: { "Pulumi.yaml": "name: policy-ts\nruntime: nodejs\n", "index.ts": tsProgram } }),
      stacks.stack({ files: { "Pulumi.yaml": yamlProgram } }),
    ]);
    await Promise.all(
      [
        { env: ts, cidr: "10.171.0.0/24" },
        { env: yaml, cidr: "10.172.0.0/24" },
      ].map(async ({ env, cidr }) => {
        const failed = await previewWithPack(env, strict);
        expect(failed.code).not.toBe(0);
        expect(failed.out).toContain(
          `cims-subnet-cidr-allowed: Subnet "app-net" has cidr ${cidr}, outside every allowed range (192.168.0.0/16)`,
        );
        expect(failed.out).toContain('cims-required-tags: Subnet "app-net" lacks tag key(s) owner');
        expect(failed.out).toContain('cims-required-tags: BaremetalImage "app-img" lacks tag key(s) owner');
        expect(failed.out).toMatch(/mandatory/);

        // The defaults allow private ranges and require no tag; the image's firmware is advisory only.
        const passed = await previewWithPack(env);
        expect(passed.out).toContain('cims-baremetal-image-uefi: BaremetalImage "app-img" has hwFirmwareType unset, not uefi');
        expect(passed.out).not.toContain("cims-subnet-cidr-allowed:");
        expect(passed.code).toBe(0);
      }),
    );
  },
  E2E_TIMEOUT_MS,
);
