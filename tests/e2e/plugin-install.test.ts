// The plugin installs like any Pulumi plugin: `npm run plugin:tarball` writes a self-contained
// tarball, `pulumi plugin install resource cims <version> -f` puts it into a fresh PULUMI_HOME,
// and a YAML program with no `plugins.providers` and no node_modules uses it: preview and up
// of one subnet against the emulator, then destroy. No pulumi-resource-cims is on PATH.
import * as fs from "node:fs";
import * as path from "node:path";
import { writePluginTarball } from "../../scripts/plugin-tarball";
import { SEED, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../support/harness";

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

/** PATH without any directory that holds a pulumi-resource-cims (npx puts node_modules/.bin on it). */
const pathWithoutPlugin = (process.env.PATH ?? "")
  .split(path.delimiter)
  .filter((dir) => !fs.existsSync(path.join(dir, "pulumi-resource-cims")))
  .join(path.delimiter);

test(
  "`pulumi plugin install resource cims -f <tarball>`, then a YAML program without plugins.providers previews, deploys and destroys a subnet",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": program }, nodeModules: null, env: { PATH: pathWithoutPlugin } });
    const tarball = await writePluginTarball(env.stack.root);
    expect(path.basename(tarball)).toMatch(
      new RegExp(`^pulumi-resource-cims-v${version.replace(/\./g, "\\.")}-[a-z]+-[a-z0-9]+\\.tar\\.gz$`),
    );

    await env.stack.run(["plugin", "install", "resource", "cims", version, "-f", tarball]);
    const installed = path.join(String(env.stack.env.PULUMI_HOME), "plugins", `resource-cims-v${version}`);
    expect(fs.readdirSync(installed)).toEqual(expect.arrayContaining(["pulumi-resource-cims", "pulumi-resource-cims.js"]));
    expect((await env.stack.run(["plugin", "ls"])).stdout).toMatch(new RegExp(`cims +resource +${version.replace(/\./g, "\\.")}`));

    const preview = await env.stack.preview();
    expect(preview.stdout).toMatch(/\+ +cims:index:Subnet +net +create/);
    await env.stack.up();
    const { subnetId } = await env.stack.outputs();
    expect(env.emulator.store.get("subnets", String(subnetId))).toMatchObject({ name: "installed-net", cidr: "10.174.0.0/24" });

    await env.stack.destroy();
    expect(env.emulator.store.list("subnets").filter((s) => s.name === "installed-net")).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);
