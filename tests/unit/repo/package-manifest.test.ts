// package.json as npm and a user's tools read it: the licence it names is the one shipped,
// its links name one repository, runtime dependencies take compatible fixes (the lock pins
// what this repo tests), installing the package runs nothing of ours, and what the README and
// the examples install exists (the package is not on the npm registry yet: `npm pack`'s tarball).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

interface Manifest {
  name: string;
  version: string;
  license: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}
const manifest = JSON.parse(read("package.json")) as Manifest;

/** What npm runs when a project installs this package (or this repo installs itself). */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"];

test("LICENSE is the standard Apache License 2.0 text, the licence package.json names", () => {
  expect(manifest.license).toBe("Apache-2.0");
  // The text as apache.org publishes it (LICENSE-2.0.txt), byte for byte.
  const sha256 = createHash("sha256").update(read("LICENSE")).digest("hex");
  expect(sha256).toBe("cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30");
});

test("repository, homepage and bugs name the same GitHub repository", () => {
  const repo = "https://github.com/pulumi-cims/pulumi-cims";
  expect(manifest.repository).toEqual({ type: "git", url: `git+${repo}.git` });
  expect(manifest.homepage).toBe(`${repo}#readme`);
  expect(manifest.bugs).toEqual({ url: `${repo}/issues` });
});

test("runtime dependencies are caret ranges, and the lock pins each to a version inside its range", () => {
  const lock = JSON.parse(read("package-lock.json")) as {
    packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
  };
  expect(lock.packages[""].dependencies).toEqual(manifest.dependencies);
  for (const [name, range] of Object.entries(manifest.dependencies)) {
    expect(`${name} ${range}`).toMatch(/ \^\d+\.\d+\.\d+$/);
    const floor = range.slice(1).split(".").map(Number);
    const pinned = (lock.packages[`node_modules/${name}`].version ?? "").split(".").map(Number);
    // Same major, not below the floor.
    expect({ name, major: pinned[0] }).toEqual({ name, major: floor[0] });
    expect(pinned[1] * 1e6 + pinned[2]).toBeGreaterThanOrEqual(floor[1] * 1e6 + floor[2]);
  }
});

test("no install-time script: the self link of this checkout is made by the build", () => {
  expect(Object.keys(manifest.scripts).filter((s) => INSTALL_SCRIPTS.includes(s))).toEqual([]);
  expect(manifest.scripts.prebuild).toBe("node scripts/link-self.js");
});

test("the examples and the README install the tarball `npm pack` writes, not an unpublished registry version", () => {
  const tarball = `${manifest.name}-${manifest.version}.tgz`;
  const examples = fs
    .readdirSync(path.join(ROOT, "examples"))
    .filter((dir) => fs.existsSync(path.join(ROOT, "examples", dir, "package.json")));
  expect(examples.length).toBeGreaterThan(0);
  for (const dir of examples) {
    const example = JSON.parse(read(`examples/${dir}/package.json`)) as { dependencies: Record<string, string> };
    const spec = example.dependencies[manifest.name];
    // `npm pack` at the root writes the tarball there; `npm install` in the example resolves this path from its folder.
    expect({ dir, spec }).toEqual({ dir, spec: expect.stringMatching(/^file:/) });
    expect(path.resolve(ROOT, "examples", dir, spec.slice("file:".length))).toBe(path.join(ROOT, tarball));
  }
  const install = /## Install and configure\n([\s\S]*?)\n## /.exec(read("README.md"))?.[1] ?? "";
  expect(install).toContain("npm ci && npm pack");
  expect(install).toMatch(new RegExp(`^npm install @pulumi/pulumi@\\S+ \\S*/${tarball.replace(/\./g, "\\.")}`, "m"));
  expect(install).not.toMatch(/^npm install pulumi-cims/m);
});
