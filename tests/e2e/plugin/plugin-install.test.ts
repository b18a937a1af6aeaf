// The plugin installs like any Pulumi plugin: `npm run plugin:tarball` writes a self-contained
// tarball, `pulumi plugin install resource cims <version> -f` puts it into a fresh PULUMI_HOME,
// and a YAML program and a Python program (the pulumi_cims SDK), each with no `plugins.providers`
// and no node_modules, use it: up of one subnet against the emulator, then destroy.
// No pulumi-resource-cims is on PATH. And
// the same plugin as a `runtime: nodejs` directory (PulumiPlugin.yaml) starts through the
// Node language host's RunPlugin. `pulumi package add` takes the installed plugin by name and
// version (not the tarball, which it refuses, saying why), and the schema it reads names the
// GitHub releases where release tarballs are published.
import * as fs from "node:fs";
import * as path from "node:path";
import { writePluginTarball } from "../../../scripts/plugin-tarball";
import { type CimsTestEnv, linkPythonVenv, PYTHON_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";
import { pythonSdkVenv } from "../../support/python-sdk";

const stacks = useStacks();
const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

const program = `name: plugin-install
runtime: yaml
resources:
  net:
    type: cims:index:Subnet
    properties:
      name: installed-net
      cidr: 10.174.0.0/24
      networkId: ${SEED.networkId}
outputs:
  subnetId: \${net.id}
`;

const pythonProgram = `import pulumi
import pulumi_cims as cims

net = cims.Subnet("net", name="installed-net", cidr="10.174.0.0/24", network_id="${SEED.networkId}")
pulumi.export("subnetId", net.id)
`;

/** PATH without any directory that holds a pulumi-resource-cims (npx puts node_modules/.bin on it). */
const pathWithoutPlugin = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => !fs.existsSync(path.join(dir, "pulumi-resource-cims")))
  .join(path.delimiter);

/**
 * Installed from the tarball into the stack's fresh PULUMI_HOME, then up and destroy. No
 * preview first: the up finds and starts the installed plugin as a preview would, and shows
 * the same step, made.
 */
async function fromTarball(env: CimsTestEnv, tarball: string): Promise<void> {
  await env.stack.run(["plugin", "install", "resource", "cims", version, "-f", tarball]);
  const installed = path.join(String(env.stack.env.PULUMI_HOME), "plugins", `resource-cims-v${version}`);
  expect(fs.readdirSync(installed)).toEqual(expect.arrayContaining(["pulumi-resource-cims", "pulumi-resource-cims.js"]));
  expect((await env.stack.run(["plugin", "ls"])).stdout).toMatch(new RegExp(`cims +resource +${version.replace(/\./g, "\\.")}`));

  const up = await env.stack.up();
  expect(up.stdout).toMatch(/\+ +cims:index:Subnet +net +created/);
  const { subnetId } = await env.stack.outputs();
  expect(env.emulator.store.get("subnets", String(subnetId))).toMatchObject({ name: "installed-net", cidr: "10.174.0.0/24" });

  await env.stack.destroy();
  expect(env.emulator.store.list("subnets").filter((s) => s.name === "installed-net")).toEqual([]);
}

/** `pulumi package add` refuses the tarball itself; once installed, `cims@<version>` adds the package. */
async function packageAdd(env: CimsTestEnv, tarball: string): Promise<void> {
  const refused = await env.stack.run(["package", "add", tarball], { allowFailure: true });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr + refused.stdout).toContain(`unable to install ${tarball}: stat ${tarball}/pulumi-resource-: not a directory`);
  await env.stack.run(["package", "add", `cims@${version}`]);
  const project = fs.readFileSync(path.join(env.stack.projectDir, "Pulumi.yaml"), "utf8");
  expect(project).toMatch(new RegExp(`packages:\\n +cims: cims@${version.replace(/\./g, "\\.")}\\n`));
  const schema = JSON.parse(
    (
      await env.stack.run([
        "package",
        "get-schema",
        path.join(String(env.stack.env.PULUMI_HOME), "plugins", `resource-cims-v${version}`, "pulumi-resource-cims"),
      ])
    ).stdout,
  ) as { pluginDownloadURL?: string };
  expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-cims/pulumi-cims");
}

test(
  "`pulumi plugin install resource cims -f <tarball>`, then a YAML and a Python program without plugins.providers each deploy and destroy a subnet, and `pulumi package add cims@<version>` adds the installed package; a `runtime: nodejs` plugin directory starts through the Node host's RunPlugin",
  async () => {
    const [installed, python, pluginDir, venv] = await Promise.all([
      stacks.stack({ files: { "Pulumi.yaml": program }, nodeModules: null, env: { PATH: pathWithoutPlugin } }),
      stacks.stack({
        files: { "Pulumi.yaml": PYTHON_PROJECT("plugin-install-py", { plugin: false }), "__main__.py": pythonProgram },
        nodeModules: null,
        env: { PATH: pathWithoutPlugin },
      }),
      // The same plugin as a PulumiPlugin.yaml directory: the engine starts it through the language host.
      stacks.stack({
        files: {
          "Pulumi.yaml": program.replace(
            "runtime: yaml\n",
            "runtime: yaml\nplugins:\n  providers:\n    - name: cims\n      path: plugin\n",
          ),
          "plugin/PulumiPlugin.yaml": "runtime:\n  name: nodejs\n  options:\n    typescript: false\n",
          "plugin/package.json": JSON.stringify({ name: "cims-plugin", version, main: "index.js" }),
          "plugin/index.js": 'require("../node_modules/pulumi-cims/dist/provider/plugin/cli.js");\n',
        },
      }),
      pythonSdkVenv(),
    ]);
    await linkPythonVenv(python.stack, venv);
    const tarball = await writePluginTarball(installed.stack.root);
    expect(path.basename(tarball)).toMatch(
      new RegExp(`^pulumi-resource-cims-v${version.replace(/\./g, "\\.")}-[a-z]+-[a-z0-9]+\\.tar\\.gz$`),
    );
    await Promise.all([
      fromTarball(installed, tarball).then(() => packageAdd(installed, tarball)),
      fromTarball(python, tarball),
      pluginDir.stack.preview().then((p) => expect(p.stdout).toMatch(/\+ +cims:index:Subnet +net +create/)),
    ]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "`pulumi package get-mapping terraform <plugin>` prints the mapping of the vendor's Terraform types of both generations to ours",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": program }, nodeModules: null });
    const plugin = path.join(REPO_ROOT, "bin", "pulumi-resource-cims");
    const { stdout, stderr } = await env.stack.run(["package", "get-mapping", "terraform", plugin]);
    expect(stderr).toContain("maps to provider gcore");
    const mapping = JSON.parse(stdout) as { name: string; resources: Record<string, { tok: string }> };
    expect(mapping.name).toBe("gcore");
    expect(mapping.resources.gcore_subnet.tok).toBe("cims:index:Subnet");
    expect(mapping.resources.gcore_cloud_network_subnet.tok).toBe("cims:index:Subnet");
    expect(mapping.resources.gcore_lbmember.tok).toBe("cims:index:LbPoolMember");
  },
  E2E_TIMEOUT_MS,
);
