// Every kind's docs example (provider/kinds/<kind>.example.ts, rendered into
// docs/resources/<kind>.md by cims-import's renderers) deployed in every language the page
// shows: TypeScript on the dynamic face, YAML, Python, Go and Java on the plugin face. The
// kinds' examples, with each lookup's (scripts/gen-lookups.ts, docs/functions/<name>.md), whose
// lookups find the seed's records by name, make one program per language (their names do not clash), so five stacks
// cover them (Java's one Maven project, built with the docs' pom.xml): `up`, then the emulator holds what each example declares (its arguments, read back
// from the records as cims-import reads them) and the stack exports what the examples say;
// `preview --expect-no-changes`; `destroy`, then what the examples made is gone and what
// they only set is as their kinds' docs say destroy leaves it.
import * as path from "node:path";
import type { ExampleLanguage } from "../../../provider/import/render";
import { renderExample } from "../../../provider/import/render";
import { combineExamples, ConfigValue, configValues, LookupValue, lookupValues, OutputValue } from "../../../provider/kinds/program-model";
import { argsOf } from "../../../provider/kinds/program-args";
import { exampleOf, KIND_NAMES } from "../../../provider/kinds/registry";
import { type CimsTestEnv, faceProject, linkPythonVenv, PLUGIN_PROJECT, PYTHON_PROJECT, SEED, useStacks } from "../../support/cims";
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

/** What the examples read from the stack's config: nothing, as each finds the records it refers to by lookup. */
const CONFIG: Record<string, string> = {};

/** What each of the examples' lookups finds, by its variable: the seed's records of those names. */
const FOUND: Record<string, unknown> = {
  "default-id": 1,
  "default-clientId": Number(SEED.clientId),
  "region-id": 1,
  "demo-net-id": SEED.networkId,
  "golden-root-id": SEED.volumeId,
  "app-data-id": SEED.appVolumeId,
  "web-pool-id": SEED.poolId,
  "nightly-snapshots-id": Number(SEED.policyId),
  "api-pool-members": [],
  "db-subnets": [],
};

const SCOPE = { projectId: 1, regionId: 1 };
const configured = (c: ConfigValue) => (c.type === "integer" ? Number(CONFIG[c.key]) : CONFIG[c.key]);

const byName = (resources: StateResource[], name: string) => resources.find((r) => r.urn.endsWith(`::${name}`));

/** An output of a resource of the state, as a program reads it (`id` is the resource's id), or what a lookup finds. */
function outputOf(resources: StateResource[], o: OutputValue | LookupValue): unknown {
  if (o instanceof LookupValue) return FOUND[o.name];
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

async function deploysAsDocumented(env: CimsTestEnv): Promise<void> {
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

/** A stack of the examples' program in `language`, its config set, ready for `up`. */
async function exampleStack(language: ExampleLanguage): Promise<CimsTestEnv> {
  const source = renderExample(PROGRAM, language);
  const name = `docs-examples-${language}`;
  if (language === "typescript")
    return stacks.stack({ files: { "Pulumi.yaml": faceProject(name, "dynamic"), "index.ts": source }, config: CONFIG });
  if (language === "yaml")
    return stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "yaml"), "Main.yaml": source }, config: CONFIG });
  if (language === "python") {
    const [venv, env] = await Promise.all([
      pythonSdkVenv(),
      stacks.stack({ files: { "Pulumi.yaml": PYTHON_PROJECT(name, { toolchain: "pip" }), "__main__.py": source }, config: CONFIG }),
    ]);
    await linkPythonVenv(env.stack, venv);
    return env;
  }
  if (language === "java") {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "java") }, env: { MAVEN_OPTS }, config: CONFIG });
    await javaProject(env.stack.projectDir, source);
    return env;
  }
  const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT(name, "go") }, env: GO_ENV, config: CONFIG });
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
    await deploysAsDocumented(await exampleStack(language));
  },
  E2E_TIMEOUT_MS,
);
