// `pulumi about`, what a bug report starts from, on stacks of ours: our Node.js host lists the
// program's dependencies from its lock file as the official host does (no "GetProgramDependencies
// not implemented"), and no cims plugin (the dynamic resources run none); a Python program
// on the generated SDK lists the cims plugin with the package's version (a Go program's:
// gen-sdk.test.ts); a YAML program lists it at the version the program records.
import * as fs from "node:fs";
import * as path from "node:path";
import { linkPythonVenv, PLUGIN_PROJECT, PYTHON_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT, type TestStack } from "../../support/harness";
import { pythonSdkVenv } from "../../support/python-sdk";

const stacks = useStacks();

const versionOf = (dir: string): string =>
  (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
const ours = versionOf(REPO_ROOT);
const sdk = versionOf(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi"));

interface About {
  plugins: Array<{ name: string; version: string | null; kind: string }> | null;
  dependencies: Array<{ name: string; version: string }> | null;
  errors?: string[];
}

async function about(stack: TestStack): Promise<About> {
  const { stdout } = await stack.run(["about", "--json", "--stack", stack.name]);
  return JSON.parse(stdout) as About;
}

/** A program's package.json and the lock file npm would write for it (indented as npm does: the host's parser reads it by lines), on this checkout's packages. */
const nodeProject = {
  "package.json": JSON.stringify({ name: "about-node", dependencies: { "@pulumi/pulumi": `^${sdk}`, "pulumi-cims": `^${ours}` } }),
  "package-lock.json": JSON.stringify(
    {
      name: "about-node",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "about-node", dependencies: { "@pulumi/pulumi": `^${sdk}`, "pulumi-cims": `^${ours}` } },
        "node_modules/@pulumi/pulumi": { version: sdk },
        "node_modules/pulumi-cims": { version: ours },
        "node_modules/ipaddr.js": { version: versionOf(path.join(REPO_ROOT, "node_modules/ipaddr.js")) },
      },
    },
    null,
    2,
  ),
};

test(
  "a Node.js program: pulumi about lists its direct dependencies with their versions, no cims plugin (the default face runs none), and no error",
  async () => {
    const env = await stacks.stack({
      files: {
        "Pulumi.yaml": PLUGIN_PROJECT("about-node"),
        "index.ts": 'import * as cims from "pulumi-cims";\nvoid cims;\n',
        ...nodeProject,
      },
    });
    const info = await about(env.stack);
    expect(info.errors ?? []).toEqual([]);
    expect(info.dependencies).toEqual([
      { name: "@pulumi/pulumi", version: sdk },
      { name: "pulumi-cims", version: ours },
    ]);
    // pulumi-cims's package.json names no plugin: the engine would otherwise look for one on
    // every run of a program that only uses the dynamic resources (docs/versions.md).
    expect(info.plugins).toEqual([{ name: "nodejs", version: "3.248.0", kind: "language" }]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a Python program on the generated SDK: pulumi about lists the cims plugin with the package's version, and its dependencies",
  async () => {
    const [venv, env] = await Promise.all([
      pythonSdkVenv(),
      stacks.stack({ files: { "Pulumi.yaml": PYTHON_PROJECT("about-python"), "__main__.py": "import pulumi_cims\n" } }),
    ]);
    await linkPythonVenv(env.stack, venv);
    const info = await about(env.stack);
    expect(info.errors ?? []).toEqual([]);
    expect(info.plugins).toEqual(expect.arrayContaining([{ name: "cims", version: ours, kind: "resource" }]));
    expect(info.dependencies).toEqual(expect.arrayContaining([{ name: "pulumi-cims", version: ours }]));
  },
  E2E_TIMEOUT_MS,
);

test(
  "a YAML program: pulumi about lists the cims plugin, at the package's version once the program records it",
  async () => {
    const program = `${PLUGIN_PROJECT("about-yaml", "yaml")}resources:
  net:
    type: cims:index:Subnet
    properties: { name: about-net, cidr: 10.171.0.0/24, networkId: ${SEED.networkId} }
`;
    const env = await stacks.stack({ files: { "Pulumi.yaml": program } });
    // Upstream's YAML host reads a package's version from the program alone, never from the plugin.
    expect((await about(env.stack)).plugins).toEqual(expect.arrayContaining([{ name: "cims", version: null, kind: "resource" }]));
    // The package declaration `pulumi package gen-sdk --language yaml` writes records it.
    await env.stack.run(["package", "gen-sdk", path.join(REPO_ROOT, "schema.json"), "--language", "yaml", "-o", "sdks"]);
    const info = await about(env.stack);
    expect(info.errors ?? []).toEqual([]);
    expect(info.plugins).toEqual(expect.arrayContaining([{ name: "cims", version: ours, kind: "resource" }]));
  },
  E2E_TIMEOUT_MS,
);
