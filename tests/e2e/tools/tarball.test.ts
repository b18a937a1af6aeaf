// The packed tarball, installed into a separate project as a user would: its manifest runs
// nothing at install, what its README points at is inside it, its emulator starts on the
// demo seed it ships, its examples type-check with the TypeScript npm installs today (7),
// and it deploys a dynamic resource of this package under the real engine.
import { spawn } from "node:child_process";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, packTarball, REPO_ROOT, runCommand, type TestStack } from "../../support/harness";

const fixture = path.join(REPO_ROOT, "tests/fixtures/echo-program");
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

/** The relative link targets of a markdown text (no URL, no anchor, nothing in code). */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`]*`/g, "");
  const targets = [...prose.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map((m) => m[1]);
  return [...new Set(targets.filter((t) => !/^[a-z]+:/.test(t)))].sort();
}

/** Starts the installed `cims-emulator` and resolves to its URL and a stop function. */
async function startInstalledEmulator(projectDir: string, args: string[]): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(path.join(projectDir, "node_modules/.bin/cims-emulator"), args, {
    cwd: projectDir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`cims-emulator printed no URL: ${out}`)), 30_000);
      child.on("exit", (code) => reject(new Error(`cims-emulator exited ${code}: ${out}`)));
      child.stdout.on("data", () => {
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    return { url, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * An Echo of the installed package deployed and destroyed: the engine loads its provider from
 * the package by name, at the up and again from the state at the destroy. The rest of the Echo
 * lifecycle (a no-op preview and refresh, an update in place) runs in tests/e2e/engine/engine.test.ts
 * on the files this tarball packs: the up has loaded every module those steps run (the Echo's
 * methods and the methods' door import all they use), so here they would run nothing new, for
 * 5 s of CPU together.
 */
async function expectEchoDeploysAndGoes(stack: TestStack, message: string): Promise<void> {
  await stack.setConfig("message", message);
  await stack.up();
  const outputs = await stack.outputs();
  expect(outputs).toMatchObject({ message, length: message.length, echoId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  // The serialized provider loads the implementation by package name: no absolute path.
  const echoState = (await stack.exportState()).deployment.resources?.find((r) => r.type === "pulumi-nodejs:dynamic/cims:Echo");
  const shim = String(echoState?.inputs?.__provider);
  expect(shim).toContain('require("pulumi-cims/testing/install").install(this, req)');
  expect(shim).not.toContain(REPO_ROOT);
  expect(shim).not.toContain(stack.root);
  await stack.destroy();
  expect((await stack.exportState()).deployment.resources ?? []).toHaveLength(0);
}

describe("npm pack tarball", () => {
  const stacks = useStacks();

  test(
    "the packed tarball installs into a separate project: its manifest, README targets, demo seed, examples, and an Echo deployed",
    async () => {
      const stack = await stacks.bare({ programDir: fixture, nodeModules: null });
      const tarball = await packTarball(stack.root);
      const { version } = JSON.parse(await fs.readFile(path.join(REPO_ROOT, "package.json"), "utf8")) as {
        version: string;
      };
      expect(path.basename(tarball)).toBe(`pulumi-cims-${version}.tgz`);
      // What a user's project would hold: the tarball, the Pulumi SDK and TypeScript; and the
      // TypeScript a plain `npm install typescript` brings today, to check the examples with.
      const pkg = {
        name: "tarball-consumer",
        private: true,
        dependencies: { "pulumi-cims": `file:${tarball}`, "@pulumi/pulumi": "3.248.0" },
        devDependencies: { typescript: "5.9.3", "typescript-7": "npm:typescript@7.0.2", "@types/node": "20.19.43" },
      };
      const projectDir = stack.projectDir;
      await fs.writeFile(path.join(projectDir, "package.json"), JSON.stringify(pkg, null, 2));
      await runCommand("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], process.env, { cwd: projectDir });
      const installedDir = path.join(projectDir, "node_modules/pulumi-cims");
      // The package came from the tarball (a real directory), not a link to this checkout.
      expect((await fs.lstat(installedDir)).isSymbolicLink()).toBe(false);

      // Installing it runs nothing of ours; npm shows where it lives.
      const installed = JSON.parse(await fs.readFile(path.join(installedDir, "package.json"), "utf8")) as {
        scripts?: Record<string, string>;
        repository?: { url: string };
      };
      expect(Object.keys(installed.scripts ?? {}).filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);
      expect(installed.repository?.url).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/);
      await fs.access(path.join(installedDir, "LICENSE"));

      // Every file the README links to, the schema and the demo seed are in the package.
      const links = relativeLinks(await fs.readFile(path.join(installedDir, "README.md"), "utf8"));
      expect(links).toEqual(expect.arrayContaining(["docs/using.md", "examples/README.md"]));
      const missing: string[] = [];
      for (const file of [...links, "schema.json", "examples/emulator-seed.json"]) {
        await fs.access(path.join(installedDir, file)).catch(() => missing.push(file));
      }
      expect(missing).toEqual([]);

      // The installed emulator serves the demo seed from its documented path.
      const key = "tarball-key";
      const emulator = await startInstalledEmulator(projectDir, [
        "--api-key",
        key,
        "--seed",
        "node_modules/pulumi-cims/examples/emulator-seed.json",
        "--quiet",
      ]);
      try {
        const res = await fetch(`${emulator.url}/cloud/v1/lbpools/1/1/${SEED.poolId}`, { headers: { authorization: `apikey ${key}` } });
        expect(res.status).toBe(200);
      } finally {
        await emulator.stop();
      }

      // Each example with a tsconfig.json type-checks as a user's copy would, against the
      // installed package, with the TypeScript npm installs today. (TypeScript 5.9 checks them
      // already: `npm run typecheck` covers examples/, and multi-env.test.ts runs multi-env
      // under ts-node with its own tsconfig.)
      const examplesDir = path.join(installedDir, "examples");
      const examples: string[] = [];
      for (const name of await fs.readdir(examplesDir)) {
        if (
          await fs.stat(path.join(examplesDir, name, "tsconfig.json")).then(
            () => true,
            () => false,
          )
        )
          examples.push(name);
      }
      expect(examples).toContain("multi-env");
      const tsc = path.join(projectDir, "node_modules/typescript-7/bin/tsc");
      const checks = examples.map(async (example) => {
        const res = await runCommand(process.execPath, [tsc, "-p", path.join(examplesDir, example), "--noEmit"], process.env, {
          cwd: projectDir,
          allowFailure: true,
        });
        return { example, code: res.code, out: res.stdout + res.stderr };
      });
      for (const check of await Promise.all(checks)) expect(check).toEqual({ ...check, code: 0, out: "" });

      await expectEchoDeploysAndGoes(stack, "hello from the tarball");
    },
    E2E_TIMEOUT_MS,
  );
});
