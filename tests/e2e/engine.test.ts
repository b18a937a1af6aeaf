// Proves the ground every other e2e test stands on: the pinned CLI runs a Node.js program
// with a dynamic resource of this package, from TypeScript (ts-node, Pulumi's default) and
// from the packed tarball installed into a separate project, through up/preview/refresh/destroy.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { createStack, E2E_TIMEOUT_MS, packTarball, REPO_ROOT, runCommand, TestStack } from "./harness";

const fixture = path.join(REPO_ROOT, "tests/fixtures/echo-program");

async function expectEchoLifecycle(stack: TestStack, message: string): Promise<void> {
  await stack.setConfig("message", message);
  await stack.up();
  const outputs = await stack.outputs();
  expect(outputs.message).toBe(message);
  expect(outputs.length).toBe(message.length);
  expect(outputs.echoId).toMatch(/^[0-9a-f-]{36}$/);

  // The serialized provider loads the implementation by package name: no absolute path
  // (state moves between laptops and CI), no captured module code.
  const echoState = (await stack.exportState()).deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/cims:Echo");
  const shim = String(echoState?.inputs?.__provider);
  expect(shim).toContain('require("pulumi-cims/provider/testing/echo-impl")');
  expect(shim).not.toContain(REPO_ROOT);
  expect(shim).not.toContain(stack.root);

  // A second preview sees nothing to do; refresh keeps the resource.
  await stack.preview(["--expect-no-changes"]);
  await stack.refresh(["--expect-no-changes"]);

  // An in-place update keeps the id.
  await stack.setConfig("message", `${message}!`);
  await stack.up();
  const updated = await stack.outputs();
  expect(updated.length).toBe(message.length + 1);
  expect(updated.echoId).toBe(outputs.echoId);

  await stack.destroy();
  const state = await stack.exportState();
  expect(state.deployment.resources ?? []).toHaveLength(0);
}

describe("pulumi CLI + dynamic provider", () => {
  let stack: TestStack | undefined;
  afterEach(async () => {
    await stack?.dispose();
    stack = undefined;
  });

  test(
    "a TypeScript program run by ts-node deploys and destroys an Echo",
    async () => {
      stack = await createStack({ programDir: fixture });
      await expectEchoLifecycle(stack, "hello from ts-node");
    },
    E2E_TIMEOUT_MS,
  );

  test(
    "the packed tarball installs into a separate project and deploys an Echo",
    async () => {
      stack = await createStack({ programDir: fixture, nodeModules: null });
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
        devDependencies: { typescript: "5.9.3", "@types/node": "20.9.5" },
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

  test(
    "the repo's demo project (Pulumi.yaml at the root) runs its example program, not the library",
    async () => {
      stack = await createStack({ projectDir: REPO_ROOT, stackName: "e2e-root-project" });
      await stack.up();
      const outputs = await stack.outputs();
      expect(outputs).toEqual({ message: "hello, CIMS", length: "hello, CIMS".length });
      await stack.destroy();
      expect((await stack.exportState()).deployment.resources ?? []).toHaveLength(0);
    },
    E2E_TIMEOUT_MS,
  );
});
