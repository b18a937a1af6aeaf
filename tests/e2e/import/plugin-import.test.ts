// Real `pulumi import` on the plugin face, under the real engine against the
// emulator, with zero writes:
// - all five kinds, single (`<project>/<region>/<id>` or the id alone with the configured
//   scope) and in bulk (`-f import.json`); a program declaring what was imported then
//   previews with no changes;
// - the imported state equals what `up` of the same inputs records (another stack made it),
//   but that it says adopted, and its destroy leaves the subnet;
// - an id that does not exist fails, naming it: in process, at the plugin's import read
//   (tests/unit/provider/plugin/import.test.ts);
// - the `import` resource option adopts a subnet and changes its name in the same run;
// - moving a stack between faces (dynamic Subnet <-> cims:index:Subnet) touches nothing in
//   the cloud, both ways;
// - on the dynamic face, Pulumi's own import fails in the Node.js host with the error
//   docs/using.md quotes (why that face adopts with importId instead).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS, type StackExport } from "../../support/harness";
import { imageRecord, subnetRecord } from "../../support/records";

const LEGACY = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const IMAGE = "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";

const stacks = useStacks();

async function stack(name: string, program = ""): Promise<CimsTestEnv> {
  return stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name), "index.ts": program } });
}

type Resource = NonNullable<StackExport["deployment"]["resources"]>[number];
const ofType = async (e: CimsTestEnv, type: string): Promise<Resource[]> =>
  ((await e.stack.exportState()).deployment.resources ?? []).filter((r) => r.type === type);

const image = imageRecord({ id: IMAGE, hw_machine_type: "i440", tags: { team: "img" } });

/** The program that declares what the imports hold (as `pulumi import` would write it). */
const declaring = `
import * as cims from "pulumi-cims";
const opts = { protect: false };
new cims.native.Subnet("legacy", {
  name: "legacy", cidr: "10.60.0.0/24", networkId: "${SEED.networkId}", connectToNetworkRouter: true, dnsNameservers: [], enableDhcp: true,
  gatewayIp: "10.60.0.1", hostRoutes: [], ipVersion: 4, tags: { team: "net" }, projectId: 1, regionId: 1,
}, opts);
new cims.native.BaremetalImage("golden", {
  name: "golden", volumeId: "${SEED.volumeId}", architecture: "x86_64", hwFirmwareType: null, hwMachineType: "i440", isBaremetal: true,
  osType: "linux", source: "volume", sshKey: "allow", tags: { team: "img" }, projectId: 1, regionId: 1,
}, opts);
new cims.native.QuotaThreshold("quota", { clientId: ${SEED.clientId}, threshold: 80 }, opts);
`;

test(
  "pulumi import of all five kinds, single and bulk, with zero writes; a program declaring them has no changes",
  async () => {
    const env = await stack("plugin-import", declaring.replace(/new cims\.native\.(BaremetalImage|QuotaThreshold)[\s\S]*?opts\);\n/g, ""));
    expect(
      (await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: LEGACY, tags: { team: "net" } })], images: [image] }))
        .status,
    ).toBe(204);
    env.emulator.metrics.reset();
    const run = (args: string[]) =>
      env.stack.run(["import", ...args, "--yes", "--protect=false", "--generate-code=false", "--stack", env.stack.name]);

    await run(["cims:index:Subnet", "legacy", `1/1/${LEGACY}`]);
    const bulk = {
      resources: [
        { type: "cims:index:BaremetalImage", name: "golden", id: IMAGE }, // the configured scope (cims:projectId/regionId)
        { type: "cims:index:LbPoolSettings", name: "pool", id: `1/1/${SEED.poolId}` },
        { type: "cims:index:SnapshotPolicyState", name: "policy", id: `1/1/${SEED.policyId}` },
        { type: "cims:index:QuotaThreshold", name: "quota", id: SEED.clientId },
      ],
    };
    await fs.writeFile(path.join(env.stack.projectDir, "import.json"), JSON.stringify(bulk));
    await run(["-f", "import.json"]);
    expect(writes(env)).toEqual([]);

    const types = ((await env.stack.exportState()).deployment.resources ?? []).map((r) => `${r.type} ${r.id}`);
    expect(types).toEqual(
      expect.arrayContaining([
        `cims:index:Subnet ${LEGACY}`,
        `cims:index:BaremetalImage ${IMAGE}`,
        `cims:index:LbPoolSettings ${SEED.poolId}`,
        `cims:index:SnapshotPolicyState ${SEED.policyId}`,
        `cims:index:QuotaThreshold ${SEED.clientId}`,
      ]),
    );
    const [subnet] = await ofType(env, "cims:index:Subnet");
    expect(subnet.inputs).toMatchObject({ name: "legacy", cidr: "10.60.0.0/24", tags: { team: "net" }, projectId: 1, regionId: 1 });
    expect(subnet.inputs).not.toHaveProperty("importId");

    // The program declaring the subnet, image and threshold as imported (the pool and policy
    // are dropped from the state first, as a program that does not declare them would): no changes.
    for (const name of ["pool", "policy"]) {
      const urn = ((await env.stack.exportState()).deployment.resources ?? []).find((r) => r.urn.endsWith(`::${name}`))!.urn;
      await env.stack.run(["state", "delete", urn, "--yes", "--stack", env.stack.name]);
    }
    await fs.writeFile(path.join(env.stack.projectDir, "index.ts"), declaring);
    await env.stack.preview(["--expect-no-changes"]);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "the imported state equals what up of the same inputs recorded, but adopted; the import option adopts and renames in one run; destroy leaves it",
  async () => {
    const made = await stack(
      "plugin-made",
      declaring
        .replace(/new cims\.native\.(BaremetalImage|QuotaThreshold)[\s\S]*?opts\);\n/g, "")
        .replace("10.60.", "10.61.")
        .replace("10.60.", "10.61."),
    );
    await made.stack.up();
    const [original] = await ofType(made, "cims:index:Subnet");

    const adopter = await stack("plugin-adopt");
    // The same emulator: the other stack's subnet is the one to import.
    await adopter.stack.setConfigs({ "cims:apiUrl": made.emulator.url }, { "cims:apiKey": made.apiKey });
    await adopter.stack.run([
      "import",
      "cims:index:Subnet",
      "legacy",
      String(original.id),
      "--yes",
      "--protect=false",
      "--generate-code=false",
      "--stack",
      adopter.stack.name,
    ]);
    const [imported] = await ofType(adopter, "cims:index:Subnet");
    expect(imported.inputs).toEqual(original.inputs);
    const { taskIds: _created, ...rest } = original.outputs ?? {};
    expect(original.outputs?.adopted).toBe(false);
    // Taken over, not made: destroy leaves it unless the program says deleteAdopted.
    expect(imported.outputs).toEqual({ ...rest, taskIds: [], adopted: true });

    // The import option, with a name that differs: imported, then updated in the same run.
    const renamed = `
import * as cims from "pulumi-cims";
new cims.native.Subnet("by-option", { name: "renamed", cidr: "10.61.0.0/24", networkId: "${SEED.networkId}" }, { import: "${String(original.id)}" });
`;
    await adopter.stack.run(["state", "delete", imported.urn, "--yes", "--stack", adopter.stack.name]);
    await fs.writeFile(path.join(adopter.stack.projectDir, "index.ts"), renamed);
    made.emulator.metrics.reset();
    const up = await adopter.stack.up();
    expect(up.stdout).toMatch(/= .*cims:index:Subnet.*by-option.*import/);
    expect(writes(made)).toEqual(["PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
    expect(made.emulator.store.get("subnets", original.id)?.name).toBe("renamed");
    await adopter.stack.preview(["--expect-no-changes"]);

    // Imported, not made (the update kept it so): the adopter's destroy leaves it, saying so.
    made.emulator.metrics.reset();
    const destroyed = await adopter.stack.destroy();
    expect(destroyed.stdout).toContain(`subnet ${String(original.id)} left in the service, not deleted: the resource adopted it`);
    expect(writes(made)).toEqual([]);
    expect(made.emulator.store.get("subnets", original.id)).toBeDefined();
  },
  E2E_TIMEOUT_MS,
);

test(
  "a stack moves between faces without touching the cloud: dynamic Subnet to cims:index:Subnet and back",
  async () => {
    const dynamic = `
import * as cims from "pulumi-cims";
export const id = new cims.Subnet("app", { name: "app", cidr: "10.62.0.0/24", networkId: "${SEED.networkId}" }).id;
`;
    const env = await stack("plugin-move", dynamic);
    await env.stack.up();
    const id = String((await env.stack.outputs()).id);
    const [before] = await ofType(env, "pulumi-nodejs:dynamic/cims:Subnet");
    env.emulator.metrics.reset();

    // Dynamic -> plugin: forget the dynamic resource, import the same subnet as cims:index:Subnet.
    await env.stack.run(["state", "delete", before.urn, "--yes", "--stack", env.stack.name]);
    await env.stack.run([
      "import",
      "cims:index:Subnet",
      "app",
      id,
      "--yes",
      "--protect=false",
      "--generate-code=false",
      "--stack",
      env.stack.name,
    ]);
    const native = `
import * as cims from "pulumi-cims";
export const id = new cims.native.Subnet("app", { name: "app", cidr: "10.62.0.0/24", networkId: "${SEED.networkId}" }).id;
`;
    await fs.writeFile(path.join(env.stack.projectDir, "index.ts"), native);
    await env.stack.preview(["--expect-no-changes"]);
    expect((await env.stack.outputs()).id).toBe(id);

    // Plugin -> dynamic: forget it, adopt it with importId (the dynamic face's import).
    const [plugin] = await ofType(env, "cims:index:Subnet");
    await env.stack.run(["state", "delete", plugin.urn, "--yes", "--stack", env.stack.name]);
    await fs.writeFile(
      path.join(env.stack.projectDir, "index.ts"),
      dynamic.replace(`networkId: "${SEED.networkId}"`, `networkId: "${SEED.networkId}", importId: "${id}"`),
    );
    // No preview after it: that an importId adoption then shows no changes on this face is
    // cims-import.test.ts's (its program's dynamic Subnets adopt with importId, then preview
    // with no changes), and this up wrote nothing.
    await env.stack.up();
    expect((await env.stack.outputs()).id).toBe(id);
    expect(writes(env)).toEqual([]);
    expect(env.emulator.store.list("subnets").map((s) => s.id)).toEqual([id]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "on the dynamic face `pulumi import` fails in the dynamic-provider host with the error docs/using.md quotes, writing nothing",
  async () => {
    const using = await fs.readFile(path.join(__dirname, "../../../docs/using.md"), "utf8");
    const quoted = /dynamic-provider host\s+fails with `([^`]+)`/.exec(using)?.[1];
    expect(quoted).toBeDefined();
    const env = await stacks.stack({ files: { "Pulumi.yaml": "name: dynamic-import\nruntime: nodejs\n", "index.ts": "export {};\n" } });
    expect((await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: LEGACY })] })).status).toBe(204);
    env.emulator.metrics.reset();
    const result = await env.stack.run(["import", "pulumi-nodejs:dynamic/cims:Subnet", "legacy", LEGACY, "--yes"], { allowFailure: true });
    expect(result.code).not.toBe(0);
    expect(`${result.stdout}\n${result.stderr}`).toContain(`error: Preview failed: ${quoted}`);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);
