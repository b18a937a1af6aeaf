// The plugin face: `pulumi-resource-cims` serves the same methods the dynamic
// face installs, as types `cims:index:<Kind>`, to a TypeScript program through
// `cims.native.<Kind>`. All five kinds under the real engine against the emulator: up,
// `preview --expect-no-changes`, `refresh --expect-no-changes`, a change of each, no diff
// after, destroy. Stack config reaches the plugin (Configure), the key is in no output or
// state, progress lines show under their resource, and `pulumi package get-schema` reads the
// schema the plugin serves (the committed schema.json).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { cimsType, PLUGIN_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";
import { KIND_NAMES } from "../../../provider/kinds/registry";

const program = (o: { name: string; weight: number; threshold: number; status: string; tag: string }) => `
import * as cims from "pulumi-cims";
const subnet = new cims.native.Subnet("net", {
  name: "${o.name}", cidr: "10.160.0.0/24", networkId: "${SEED.networkId}", tags: { env: "${o.tag}" },
});
new cims.native.BaremetalImage("img", { name: "${o.name}-img", volumeId: "${SEED.volumeId}", hwMachineType: "pc", tags: { env: "${o.tag}" } });
new cims.native.LbPoolSettings("pool", {
  poolId: "${SEED.poolId}", members: [{ address: "10.160.0.10", protocolPort: 8080, weight: ${o.weight}, subnetId: subnet.id }],
});
new cims.native.SnapshotPolicyState("policy", { policyId: ${SEED.policyId}, status: "${o.status}" });
new cims.native.QuotaThreshold("quota", { clientId: ${SEED.clientId}, threshold: ${o.threshold} });
export const subnetId = subnet.id;
export const totalIps = subnet.totalIps;
`;

const stacks = useStacks();
const TYPES = ["BaremetalImage", "LbPoolSettings", "QuotaThreshold", "SnapshotPolicyState", "Subnet"].map((k) => cimsType(k, "native"));

test(
  "all five kinds through cims.native: create, no diff, refresh, a change of each, no diff, destroy; the key in no artifact",
  async () => {
    const first = { name: "plug", weight: 1, threshold: 85, status: "paused", tag: "dev" };
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("plugin-face"), "index.ts": program(first) } });
    const { store } = env.emulator;
    const artifacts: string[] = [];

    // `--debug` shows each task's state change under its resource; the default output does not.
    const up = await env.stack.up(["--debug"]);
    artifacts.push(up.stdout, up.stderr);
    expect(up.stdout).toMatch(/cims:index:Subnet \(net\):[^]*?cims: Subnet "plug": task [0-9a-f-]{36} [A-Z >-]*FINISHED\b/);
    const state = await env.stack.exportState();
    const types = (state.deployment.resources ?? []).map((r) => r.type).filter((t) => t.startsWith("cims:index:"));
    expect(types.sort()).toEqual(TYPES);
    const outputs = await env.stack.outputs();
    expect(outputs.totalIps).toBe("254");
    expect(store.get("subnets", outputs.subnetId)).toMatchObject({ name: "plug" });
    expect(store.list("images")[0]).toMatchObject({ name: "plug-img", hw_machine_type: "i440" });
    expect(store.get("lifecycle_policies", Number(SEED.policyId))?.status).toBe("paused");
    expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(85);

    artifacts.push((await env.stack.preview(["--expect-no-changes"])).stdout);
    artifacts.push((await env.stack.refresh(["--expect-no-changes"])).stdout);

    const second = { name: "plug-2", weight: 3, threshold: 90, status: "active", tag: "prod" };
    await fs.writeFile(path.join(env.stack.projectDir, "index.ts"), program(second));
    // `up --diff` prints each step's diff as `preview --diff` does (the same Diff call).
    const changed = await env.stack.up(["--diff"]);
    expect(changed.stdout).toMatch(/~ name\s*: "plug" => "plug-2"/); // a detailed diff, field by field
    artifacts.push(changed.stdout);
    expect(changed.stdout).not.toMatch(/replac/);
    expect(store.get("subnets", outputs.subnetId)).toMatchObject({ name: "plug-2" });
    // The program's member (the seeded one, another's as far as the stack knows, stays beside it).
    expect(
      (store.get("lbpools", SEED.poolId)?.members as Array<{ address: string; weight: number }>).find((m) => m.address === "10.160.0.10")
        ?.weight,
    ).toBe(3);
    expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(90);
    await env.stack.preview(["--expect-no-changes"]);

    artifacts.push(JSON.stringify(await env.stack.exportState()));
    artifacts.push((await env.stack.destroy()).stdout);
    expect(store.list("subnets")).toEqual([]);
    expect(store.list("images")).toEqual([]);
    expect(artifacts.filter((a) => a.includes(env.apiKey))).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "pulumi package get-schema reads the plugin's schema: every kind, named nested types, the key secret",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("schema"), "index.ts": "" } });
    const { stdout } = await env.stack.run(["package", "get-schema", path.join(REPO_ROOT, "bin/pulumi-resource-cims")]);
    const schema = JSON.parse(stdout) as {
      name: string;
      resources: Record<string, { inputProperties: Record<string, unknown> }>;
      types: Record<string, unknown>;
      config: { variables: Record<string, { secret?: boolean }> };
    };
    expect(schema.name).toBe("cims");
    expect(Object.keys(schema.resources).sort()).toEqual(KIND_NAMES.map((k) => cimsType(k, "native")).sort());
    expect(schema.resources["cims:index:LbPoolSettings"].inputProperties.members).toMatchObject({
      type: "array",
      items: { $ref: "#/types/cims:index:PoolMember" },
    });
    expect(Object.keys(schema.types)).toEqual(expect.arrayContaining(["cims:index:HealthMonitor", "cims:index:QuotaMessage"]));
    expect(schema.config.variables.apiKey.secret).toBe(true);
    // The committed copy is this schema (schema.json, docs/platform.md).
    expect(JSON.parse(await fs.readFile(path.join(REPO_ROOT, "schema.json"), "utf8"))).toEqual(schema);
  },
  E2E_TIMEOUT_MS,
);
