// Every kind's docs example (provider/kinds/<kind>.example.ts, rendered into
// docs/resources/<kind>.md by cims-import's renderers) deployed in every language the page
// shows: TypeScript on the dynamic face, YAML, Python, Go and Java on the plugin face. The
// kinds' examples, with each lookup's (scripts/gen-lookups.ts, docs/functions/<name>.md), whose
// lookups find the seed's records by name (and, in project 2, region 3, the docs stacks' own:
// docsSeed below), make one program per language (their names do not clash), so five stacks
// cover them (Java's one Maven project, built with the docs' pom.xml): `up`, then the emulator holds what each example declares (its arguments, read back
// from the records as cims-import reads them) and the stack exports what the examples say;
// `preview --expect-no-changes`; `destroy` (once a face: TypeScript's and YAML's stacks), then
// what the examples made is gone and what they only set is as their kinds' docs say destroy
// leaves it.
import * as fs from "node:fs";
import * as path from "node:path";
import type { ExampleLanguage } from "../../../provider/import/render";
import { renderExample } from "../../../provider/import/render";
import { toSnake } from "../../../api/names";
import {
  combineExamples,
  ConfigValue,
  configValues,
  ItemValue,
  LookupValue,
  lookupValues,
  OutputValue,
} from "../../../provider/kinds/program-model";
import { argsOf } from "../../../provider/kinds/program-args";
import { exampleOf, KIND_NAMES } from "../../../provider/kinds/registry";
import {
  type CimsTestEnv,
  faceProject,
  linkPythonVenv,
  PLUGIN_PROJECT,
  PYTHON_PROJECT,
  SEED,
  SEED_FILE,
  useStacks,
} from "../../support/cims";
import { imageRecord, memberRecord, subnetRecord } from "../../support/records";
import { GO_ENV, goModule } from "../../support/go";
import { E2E_TIMEOUT_MS, REPO_ROOT, type StackExport } from "../../support/harness";
import { javaProject, MAVEN_OPTS } from "../../support/java";
import { pythonSdkVenv } from "../../support/python-sdk";
import { KITS } from "../../kits";
import { LOOKUP_EXAMPLES } from "../../../scripts/gen-lookups";

type ApiRecord = Record<string, unknown>;
type StateResource = NonNullable<StackExport["deployment"]["resources"]>[number];

const stacks = useStacks();

/** The kinds' examples and the lookups' (docs/functions/), one program. */
const PROGRAM = combineExamples([...KIND_NAMES.map(exampleOf), ...Object.values(LOOKUP_EXAMPLES).filter((e) => e !== undefined)]);

/**
 * Project 2, region 3: the seed's other scope, where the kinds' examples make nothing (they use
 * the provider's, 1 and 1), so a lookup there finds exactly what the lookups' pages say.
 */
const ELSEWHERE = { project_id: 2, region_id: 3 } as const;
const PROD_NET = "6f1c2a3b-8d4e-4f5a-b6c7-d8e9f0a1b2c3";
const PROD_ROOT = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";
const API_POOL = "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70";

const DB_SUBNET = subnetRecord({
  id: "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d",
  name: "db",
  cidr: "10.90.0.0/24",
  gateway_ip: "10.90.0.1",
  dns_nameservers: ["10.90.0.2"],
  network_id: PROD_NET,
  ...ELSEWHERE,
  region: "Frankfurt",
});
const UBUNTU_IMAGE = imageRecord({
  id: "6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e",
  name: "ubuntu-24.04-bm",
  volume_id: PROD_ROOT,
  os_distro: "ubuntu",
  os_version: "24.04",
  ...ELSEWHERE,
});
const API_MEMBER = memberRecord({
  id: "7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
  address: "10.90.0.10",
  protocol_port: 8080,
  subnet_id: DB_SUBNET.id,
});

/**
 * The docs stacks' records beside the shared seed's (tests/support/cims.ts): a subnet, a bare
 * metal image and a member of api-pool, in project 2, region 3, for getSubnet, getSubnets,
 * getImage and getPoolMembers to find. Theirs alone: in the shared seed they would change what
 * other files' lookups, lists and imports of that scope see.
 */
function docsSeed(): Record<string, Array<Record<string, unknown>>> {
  const shared = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as { lbpools: Array<Record<string, unknown>> };
  const apiPool = shared.lbpools.find((p) => p.id === API_POOL);
  return { subnets: [DB_SUBNET], images: [UBUNTU_IMAGE], lbpools: [{ ...apiPool, members: [API_MEMBER] }] };
}

/** What the examples read from the stack's config: nothing, as each finds the records it refers to by lookup. */
const CONFIG: Record<string, string> = {};

/** What each of the examples' lookups finds, by its variable: the seed's records of those names (a list's, as the service holds them). */
const FOUND: Record<string, unknown> = {
  "default-id": 1,
  "default-clientId": Number(SEED.clientId),
  "region-id": 1,
  "demo-net-id": SEED.networkId,
  "golden-root-id": SEED.volumeId,
  "app-data-id": SEED.appVolumeId,
  "web-pool-id": SEED.poolId,
  "nightly-snapshots-id": Number(SEED.policyId),
  "db-id": DB_SUBNET.id,
  "db-subnets": [DB_SUBNET],
  "ubuntu-id": UBUNTU_IMAGE.id,
  "api-pool-members": [API_MEMBER],
};

const SCOPE = { projectId: 1, regionId: 1 };
const configured = (c: ConfigValue) => (c.type === "integer" ? Number(CONFIG[c.key]) : CONFIG[c.key]);

const byName = (resources: StateResource[], name: string) => resources.find((r) => r.urn.endsWith(`::${name}`));

/** An output of a resource of the state, as a program reads it (`id` is the resource's id), or what a lookup finds. */
function outputOf(resources: StateResource[], o: OutputValue | LookupValue | ItemValue): unknown {
  if (o instanceof LookupValue) return FOUND[o.name];
  if (o instanceof ItemValue) return (FOUND[o.list.name] as Array<Record<string, unknown>>)[o.index][toSnake(o.field)];
  const r = byName(resources, o.resource);
  return o.output === "id" ? r?.id : r?.outputs?.[o.output];
}

/** A declared argument as a matcher of what the record holds: config and outputs resolved, lists and objects as "containing". */
function matcher(value: unknown, resources: StateResource[]): unknown {
  if (value instanceof ConfigValue) return configured(value);
  if (value instanceof OutputValue || value instanceof LookupValue) return outputOf(resources, value);
  if (Array.isArray(value)) return expect.arrayContaining(value.map((v) => matcher(v, resources)));
  if (typeof value === "object" && value !== null)
    return expect.objectContaining(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, matcher(v, resources)])));
  return value;
}

const stateResources = async (env: CimsTestEnv) => (await env.stack.exportState()).deployment.resources ?? [];

/**
 * `destroy`: false where another language's stack on the same face destroys the same kinds:
 * destroy runs no program, only the provider over the state, whose records the up's checks
 * above hold to the examples' arguments in every language.
 */
async function deploysAsDocumented(env: CimsTestEnv, destroy = true): Promise<void> {
  await env.stack.up();
  const resources = await stateResources(env);
  const records = new Map<string, ApiRecord | undefined>();
  for (const d of PROGRAM.declarations) {
    const r = byName(resources, d.name);
    expect(r).toBeDefined();
    const record = KITS[d.type].example.record(env, r!);
    records.set(d.name, record);
    expect({ [d.name]: record && argsOf(d.type, record, SCOPE) }).toEqual({ [d.name]: matcher(d.args, resources) });
  }
  const outputs = await env.stack.outputs();
  for (const [name, o] of Object.entries(PROGRAM.outputs)) expect({ [name]: outputs[name] }).toEqual({ [name]: outputOf(resources, o) });

  await env.stack.preview(["--expect-no-changes"]);
  if (!destroy) return;

  await env.stack.destroy();
  expect((await stateResources(env)).filter((r) => r.type.includes("cims:"))).toEqual([]);
  for (const d of PROGRAM.declarations) {
    const r = byName(resources, d.name)!;
    const resolved = Object.fromEntries(
      Object.entries(d.args).map(([k, v]) => [k, v instanceof ConfigValue ? configured(v) : v instanceof LookupValue ? FOUND[v.name] : v]),
    );
    KITS[d.type].example.afterDestroy(KITS[d.type].example.record(env, r), resolved);
  }
}

/** A stack on an emulator of the shared seed and docsSeed's records, its config set. */
async function docsStack(opts: Omit<NonNullable<Parameters<typeof stacks.stack>[0]>, "config">): Promise<CimsTestEnv> {
  const env = await stacks.stack({ ...opts, config: CONFIG });
  env.emulator.store.loadSeed(docsSeed());
  return env;
}

/** A stack of the examples' program in `language`, its config set, ready for `up`. */
async function exampleStack(language: ExampleLanguage): Promise<CimsTestEnv> {
  const source = renderExample(PROGRAM, language);
  const name = `docs-examples-${language}`;
  if (language === "typescript") return docsStack({ files: { "Pulumi.yaml": faceProject(name, "dynamic"), "index.ts": source } });
  if (language === "yaml") return docsStack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "yaml"), "Main.yaml": source } });
  if (language === "python") {
    const [venv, env] = await Promise.all([
      pythonSdkVenv(),
      docsStack({ files: { "Pulumi.yaml": PYTHON_PROJECT(name, { toolchain: "pip" }), "__main__.py": source } }),
    ]);
    await linkPythonVenv(env.stack, venv);
    return env;
  }
  if (language === "java") {
    const env = await docsStack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "java") }, env: { MAVEN_OPTS } });
    await javaProject(env.stack.projectDir, source);
    return env;
  }
  const env = await docsStack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "go") }, env: GO_ENV });
  const sdk = path.join(env.stack.root, "sdk");
  await env.stack.run(["package", "gen-sdk", path.join(REPO_ROOT, "schema.json"), "--language", "go", "-o", sdk]);
  await goModule(env.stack.projectDir, sdk, source);
  return env;
}

test("the examples read exactly the config this test gives", () => {
  expect(
    configValues(PROGRAM.declarations)
      .map((c) => c.key)
      .sort(),
  ).toEqual(Object.keys(CONFIG).sort());
});

test("the examples look up exactly the records this test expects them to find", () => {
  expect(
    lookupValues(PROGRAM)
      .map((l) => l.name)
      .sort(),
  ).toEqual(Object.keys(FOUND).sort());
});

test.each<ExampleLanguage>(["typescript", "yaml", "python", "go", "java"])(
  "%s: every kind's docs example deploys as it says, then no changes, then destroy leaves what its kind's docs say",
  async (language) => {
    // The plugin face's destroy runs once, in YAML's stack (the dynamic face's in TypeScript's).
    await deploysAsDocumented(await exampleStack(language), language === "typescript" || language === "yaml");
  },
  E2E_TIMEOUT_MS,
);
