// The packed tarball, installed into a separate project as a user would, deploys a dynamic
// resource of this package under the real engine.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { expectEchoLifecycle } from "./echo-lifecycle";
import { useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS, packTarball, REPO_ROOT, runCommand } from "../support/harness";

const fixture = path.join(REPO_ROOT, "tests/fixtures/echo-program");

describe("npm pack tarball", () => {
  const stacks = useStacks();

  test(
    "the packed tarball installs into a separate project and deploys an Echo",
    async () => {
      const stack = await stacks.bare({ programDir: fixture, nodeModules: null });
      const tarball = await packTarball(stack.root);
      const { version } = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
        version: string;
      };
      expect(path.basename(tarball)).toBe(`pulumi-cims-${version}.tgz`);
      // What a user's project would hold: the tarball, the Pulumi SDK and TypeScript.
      const pkg = {
        name: "tarball-consumer",
        private: true,
        dependencies: { "pulumi-cims": `file:${tarball}`, "@pulumi/pulumi": "3.248.0" },
        devDependencies: { typescript: "5.9.3", "@types/node": "20.19.43" },
      };
      await fs.writeFile(path.join(stack.projectDir, "package.json"), JSON.stringify(pkg, null, 2));
      await runCommand("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], process.env, {
        cwd: stack.projectDir,
      });
      // The package came from the tarball (a real directory), not a link to this checkout.
      const installed = await fs.lstat(path.join(stack.projectDir, "node_modules/pulumi-cims"));
      expect(installed.isSymbolicLink()).toBe(false);
      await expectEchoLifecycle(stack, "hello from the tarball");
    },
    E2E_TIMEOUT_MS,
  );
});
