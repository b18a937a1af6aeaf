// What a user's program loads is the resource classes only: the validation, HTTP and
// parsing code (zod, undici, ipaddr.js, lossless-json) is for the provider process, which
// loads it through the one frozen entry point. Checked on the built package, as a program
// resolves it (node_modules/pulumi-cims).
import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../../support/harness";

function loadedBy(script: string): string[] {
  const out = execFileSync(process.execPath, ["-e", `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out) as string[];
}

const HEAVY = ["/node_modules/zod/", "/node_modules/undici/", "/node_modules/ipaddr.js/", "/node_modules/lossless-json/"];

test("importing pulumi-cims loads none of the provider process's dependencies", () => {
  const loaded = loadedBy('require("pulumi-cims")');
  expect(loaded.some((f) => f.includes("/dist/provider/resources/generated/subnet.js"))).toBe(true);
  expect(loaded.filter((f) => HEAVY.some((h) => f.includes(h)))).toEqual([]);
  expect(loaded.filter((f) => f.includes("/dist/provider/methods/") || f.includes("/dist/provider/client/"))).toEqual([]);
});

test("the frozen entry point resolves by package name and loads a kind's methods only when asked", () => {
  const loaded = loadedBy(
    'const door = require("pulumi-cims/provider/resources/install"); if (typeof door.install !== "function") throw new Error("no install")',
  );
  expect(loaded.filter((f) => f.includes("/dist/provider/kinds/subnet.js"))).toEqual([]);
  const withSubnet = loadedBy(
    'const t = {}; require("pulumi-cims/provider/resources/install").install(t, "Subnet", { config: { get: () => undefined } }).then(() => { if (typeof t.check !== "function") process.exit(3); })',
  );
  expect(withSubnet.some((f) => f.includes("/dist/provider/kinds/subnet.js"))).toBe(true);
});

test("internal modules are not importable by package name", () => {
  expect(() => loadedBy('require("pulumi-cims/provider/kinds/subnet")')).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED|not defined by "exports"/);
});
