// The plugin face as a complete provider, under the real engine against the emulator, in two
// stacks run side by side:
// - TypeScript: plugin resources inside a ComponentResource; `get` by id (`Subnet.get` with
//   the configured scope, `new Subnet(name, {}, { id: "<project>/<region>/<id>" })`); two
//   `cims.native.Provider`s in other projects and regions, the key given plain and kept
//   secret; then the resource options as Pulumi documents them: an alias that adds a parent
//   (no change), ignoreChanges (no diff), replaceOnChanges on an in-place field (a
//   replacement), deleteBeforeReplace (the DELETE before the POST), protect (destroy
//   refused), retainOnDelete (left in the service), and what was only read left too;
// - YAML: `options: parent:`, `get:` with the scope from the get's state, a
//   `pulumi:providers:cims` in another project and region (the key from secret config, not in
//   the state), broken provider arguments failing the preview by name with no request sent, a
//   rotated `cims:apiKey` an update of the provider that replaces nothing, and an unknown id
//   failing with the id and the scope it was looked for in.
import { randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { api, type CimsTestEnv, loggedRequests, PLUGIN_PROJECT, requestLogFile, SEED, useStacks } from "../../support/cims";
import { VERSION } from "../../../provider/version";
import { E2E_TIMEOUT_MS, type RunResult } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const stacks = useStacks();

const PROD_NET = "6f1c2a3b-8d4e-4f5a-b6c7-d8e9f0a1b2c3"; // the seed's network in project 2, region 3
const SEEDED = "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
const SEEDED_PROD = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a";
const GHOST = "3e4f5a6b-7c8d-4e9f-8a0b-2c3d4e5f6a7b";
const seeds = {
  subnets: [
    subnetRecord({ id: SEEDED, name: "seeded" }),
    subnetRecord({ id: SEEDED_PROD, name: "seeded-prod", network_id: PROD_NET, project_id: 2, region_id: 3, region: "Frankfurt" }),
  ],
};

type Step = 1 | 2;

const tsProgram = (step: Step) => `
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";
const networkId = "${SEED.networkId}";

class Net extends pulumi.ComponentResource {
  constructor(name: string) {
    super("acme:net:Net", name, {});
    new cims.native.QuotaThreshold("quota", { clientId: ${SEED.clientId}, threshold: 85 }, { parent: this });
    new cims.native.Subnet("inner", { name: "inner", cidr: "10.181.0.0/24", networkId }, { parent: this });
    ${step > 1 ? 'new cims.native.Subnet("moved", { name: "moved", cidr: "10.188.0.0/24", networkId }, { parent: this, aliases: [{ parent: pulumi.rootStackResource }] });' : ""}
    this.registerOutputs({});
  }
}
new Net("net");
${step === 1 ? 'new cims.native.Subnet("moved", { name: "moved", cidr: "10.188.0.0/24", networkId });' : ""}

const seeded = cims.native.Subnet.get("seeded", "${SEEDED}");
const seededProd = new cims.native.Subnet("seeded-prod", {}, { id: "2/3/${SEEDED_PROD}" });
export const seededName = seeded.name;
export const seededProdScope = pulumi.interpolate\`\${seededProd.projectId}/\${seededProd.regionId}/\${seededProd.cidr}\`;

const cfg = new pulumi.Config("cims");
// Given plain: the Provider keeps it secret.
const apiKey = pulumi.unsecret(cfg.requireSecret("apiKey"));
const here = new cims.native.Provider("here", { apiUrl: cfg.require("apiUrl"), apiKey, projectId: 1, regionId: 1 });
const prod = new cims.native.Provider("prod", { apiUrl: cfg.require("apiUrl"), apiKey, projectId: 2, regionId: 3 });
new cims.native.Subnet("in-here", { name: "in-here", cidr: "10.187.0.0/24", networkId }, { provider: here });
new cims.native.Subnet("in-prod", { name: "in-prod", cidr: "10.187.0.0/24", networkId: "${PROD_NET}" }, { provider: prod });

new cims.native.Subnet("guarded", { name: "guarded", cidr: "10.182.0.0/24", networkId }, { protect: true });
new cims.native.Subnet("kept", { name: "kept", cidr: "10.183.0.0/24", networkId }, { retainOnDelete: true });
new cims.native.Subnet("ign", { name: "${step === 1 ? "ign" : "ign-2"}", cidr: "10.184.0.0/24", networkId }, { ignoreChanges: ["name"] });
new cims.native.BaremetalImage("img", { name: "${step === 1 ? "img" : "img-2"}", volumeId: "${SEED.volumeId}" }, { replaceOnChanges: ["name"] });
new cims.native.Subnet("dbr", { name: "dbr", cidr: "${step === 1 ? "10.185.0.0/24" : "10.186.0.0/24"}", networkId }, { deleteBeforeReplace: true });
`;

/** The YAML stack's explicit provider for project 2 (its URL and region given) and the subnet that uses it. */
const prodResources = (apiUrl: string, regionId: number) => `  prod:
    type: pulumi:providers:cims
    properties:
      apiUrl: ${apiUrl}
      apiKey: \${cims:apiKey}
      projectId: 2
      regionId: ${regionId}
  inProd:
    type: cims:index:Subnet
    properties:
      name: yaml-in-prod
      cidr: 10.191.0.0/24
      networkId: ${PROD_NET}
    options:
      provider: \${prod}
`;

const yamlProgram = (seededId: string) => `${PLUGIN_PROJECT("plugin-options-yaml", "yaml")}resources:
  net:
    type: cims:index:Subnet
    properties:
      name: yaml-parent
      cidr: 10.190.0.0/24
      networkId: ${SEED.networkId}
  child:
    type: cims:index:QuotaThreshold
    properties:
      clientId: ${SEED.clientId}
      threshold: 77
    options:
      parent: \${net}
  seeded:
    type: cims:index:Subnet
    get:
      id: ${seededId}
  seededProd:
    type: cims:index:Subnet
    get:
      id: ${SEEDED_PROD}
      state:
        projectId: 2
        regionId: 3
${prodResources("${cims:apiUrl}", 3)}outputs:
  seededName: \${seeded.name}
  prodCidr: \${seededProd.cidr}
`;

/** The YAML stack's provider alone, its arguments broken, and the one subnet that uses it. */
const badProviderProgram = `${PLUGIN_PROJECT("plugin-options-yaml", "yaml")}resources:
${prodResources("not a url", 0)}`;
/** The key the account is issued when the YAML stack's key is rotated (the emulator accepts both). */
const ROTATED = `e2e-rotated-${randomBytes(8).toString("hex")}`;

const seed = async (env: CimsTestEnv) => expect((await api(env, "POST", "/__emulator/seed", seeds)).status).toBe(204);

/** Each step of a `preview --json` by the resource's name, as `op` (an unchanged resource has none). */
function ops(preview: RunResult): Record<string, string> {
  const { steps } = JSON.parse(preview.stdout) as { steps: Array<{ op: string; urn: string }> };
  return Object.fromEntries(steps.map((s) => [s.urn.split("::").at(-1), s.op]));
}

async function typescriptFace(): Promise<void> {
  const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-options-${process.pid}.jsonl`);
  const env = await stacks.stack({
    files: { "Pulumi.yaml": PLUGIN_PROJECT("plugin-options"), "index.ts": tsProgram(1) },
    emulator: { requestLog },
  });
  const { store } = env.emulator;
  const subnet = (name: string) => store.list("subnets").find((s) => s.name === name);
  const artifacts: string[] = [];
  await seed(env);

  const first = await env.stack.up();
  artifacts.push(first.stdout, first.stderr);
  const outputs = await env.stack.outputs();
  expect(outputs.seededName).toBe("seeded");
  expect(outputs.seededProdScope).toBe("2/3/10.60.0.0/24");
  expect(subnet("inner")).toMatchObject({ project_id: 1, region_id: 1 });
  expect(store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(85);
  expect(subnet("in-here")).toMatchObject({ project_id: 1, region_id: 1, network_id: SEED.networkId });
  expect(subnet("in-prod")).toMatchObject({ project_id: 2, region_id: 3, network_id: PROD_NET });
  const state = JSON.stringify(await env.stack.exportState());
  artifacts.push(state);
  const providers = JSON.parse(state).deployment.resources.filter((r: { type: string }) => r.type === "pulumi:providers:cims");
  // The classes ask for the plugin at the package's version, so the default provider is named
  // and versioned by it, as a registry SDK's is.
  const defaultName = `default_${VERSION.replace(/\./g, "_")}`;
  expect(providers.map((p: { urn: string }) => p.urn.split("::").at(-1)).sort()).toEqual([defaultName, "here", "prod"]);
  expect(providers.find((r: { urn: string }) => r.urn.endsWith(`::${defaultName}`))?.inputs.version).toBe(VERSION);
  for (const p of providers.filter((r: { urn: string }) => !r.urn.endsWith(`::${defaultName}`))) {
    expect(p.inputs.apiKey).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
  }
  const before = { img: store.list("images")[0].id, dbr: String(subnet("dbr")?.id) };

  // Step 2: an alias adds a parent, an ignored change, a change that replaceOnChanges makes a
  // replacement, and a replacement that deleteBeforeReplace orders.
  await fs.writeFile(path.join(env.stack.projectDir, "index.ts"), tsProgram(2));
  const preview = await env.stack.preview(["--json"]);
  // Only what changes has a step (besides the stack's and the reads): "moved" (the alias) and
  // "ign" (the ignored change) have none.
  expect(ops(preview)).toEqual({ "plugin-options-e2e": "same", seeded: "read", "seeded-prod": "read", img: "replace", dbr: "replace" });
  const logged = (await loggedRequests(requestLog)).length;
  const second = await env.stack.up();
  artifacts.push(second.stdout, second.stderr);
  const during = (await loggedRequests(requestLog)).slice(logged);
  const deleted = during.indexOf(`DELETE /cloud/v1/subnets/1/1/${before.dbr}`);
  expect(deleted).toBeGreaterThanOrEqual(0);
  expect(deleted).toBeLessThan(during.indexOf("POST /cloud/v1/subnets/1/1"));
  const urns = ((await env.stack.exportState()).deployment.resources ?? []).map((r) => r.urn);
  expect(urns).toContainEqual(expect.stringMatching(/::acme:net:Net\$cims:index:Subnet::moved$/));
  expect(subnet("dbr")).toMatchObject({ cidr: "10.186.0.0/24" });
  expect(subnet("ign")).toBeDefined();
  expect(store.list("images").map((i) => [i.id === before.img, i.name])).toEqual([[false, "img-2"]]);
  artifacts.push((await env.stack.preview(["--expect-no-changes"])).stdout);

  // Destroy refuses to delete the protected subnet (and deletes the rest); once unprotected,
  // it goes too. What retainOnDelete keeps and what the stack only read stay in the service.
  const refused = await env.stack.destroy([], { allowFailure: true });
  artifacts.push(refused.stdout, refused.stderr);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout + refused.stderr).toMatch(/cannot be deleted[\s\S]*protect/);
  expect(subnet("guarded")).toBeDefined();
  await env.stack.run(["state", "unprotect", "--all", "--yes", "--stack", env.stack.name]);
  artifacts.push((await env.stack.destroy()).stdout);
  expect(
    store
      .list("subnets")
      .map((s) => s.name)
      .sort(),
  ).toEqual(["kept", "seeded", "seeded-prod"]);
  expect(store.list("images")).toEqual([]);
  expect(artifacts.filter((a) => a.includes(env.apiKey))).toEqual([]);
}

async function yamlFace(): Promise<void> {
  const env = await stacks.stack({ files: { "Pulumi.yaml": yamlProgram(SEEDED) }, emulator: { moreApiKeys: [ROTATED] } });
  await seed(env);
  await env.stack.up();
  const outputs = await env.stack.outputs();
  expect(outputs).toMatchObject({ seededName: "seeded", prodCidr: "10.60.0.0/24" });
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  expect(resources.find((r) => r.urn.endsWith("::child"))?.urn).toContain("cims:index:Subnet$cims:index:QuotaThreshold::child");
  expect(env.emulator.store.get("client_quotas", Number(SEED.clientId))?.threshold).toBe(77);
  expect(env.emulator.store.list("subnets").find((s) => s.name === "yaml-in-prod")).toMatchObject({ project_id: 2, region_id: 3 });
  expect(JSON.stringify(resources)).not.toContain(env.apiKey);

  // A provider's broken arguments fail the preview, each named with its rule, before any request.
  const program = path.join(env.stack.projectDir, "Pulumi.yaml");
  await fs.writeFile(program, badProviderProgram);
  const requestsBefore = env.emulator.metrics.snapshot().total_requests;
  const bad = await env.stack.preview([], { allowFailure: true });
  expect(bad.code).not.toBe(0);
  expect(bad.stdout + bad.stderr).toContain('apiUrl must be an absolute http(s) URL, got "not a url"');
  expect(bad.stdout + bad.stderr).toContain('regionId must be an integer >= 1, got "0"');
  expect(bad.stdout + bad.stderr).not.toContain(env.apiKey);
  expect(env.emulator.metrics.snapshot().total_requests).toBe(requestsBefore);

  // A rotated `cims:apiKey` updates the provider that takes it, naming it, and replaces nothing
  // (the default provider takes it too, but the CLI shows no default provider's step).
  await fs.writeFile(program, yamlProgram(SEEDED));
  await env.stack.setConfig("cims:apiKey", ROTATED, true);
  const rotated = await env.stack.preview(["--json"]);
  const steps = (JSON.parse(rotated.stdout) as { steps: Array<{ op: string; urn: string; diffReasons?: string[] }> }).steps;
  const providerSteps = steps.filter((s) => s.urn.includes("::pulumi:providers:cims::"));
  expect(providerSteps.map((s) => [s.urn.split("::").at(-1), s.op, s.diffReasons])).toEqual([["prod", "update", ["apiKey"]]]);
  expect(steps.filter((s) => !s.urn.includes("::pulumi:providers:cims::") && !["same", "read"].includes(s.op))).toEqual([]);
  expect(rotated.stdout + rotated.stderr).not.toMatch(new RegExp(`${env.apiKey}|${ROTATED}`));

  await fs.writeFile(program, yamlProgram(GHOST));
  const ghost = await env.stack.preview([], { allowFailure: true });
  expect(ghost.code).not.toBe(0);
  expect(ghost.stdout + ghost.stderr).toContain(`cims:index:Subnet: no record ${GHOST} in project 1, region 1 to read`);
}

test(
  "the plugin face: parents, get by id, explicit providers, and protect, retainOnDelete, ignoreChanges, replaceOnChanges, deleteBeforeReplace, aliases",
  async () => {
    // Both to their end before the stacks are disposed; then the first failure.
    const settled = await Promise.allSettled([typescriptFace(), yamlFace()]);
    for (const s of settled) if (s.status === "rejected") throw s.reason;
  },
  E2E_TIMEOUT_MS,
);
