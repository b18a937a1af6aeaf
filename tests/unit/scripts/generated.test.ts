// Every file `npm run gen` writes from the contracts and the kinds is committed as it writes
// it: a contract change lands with its Args, State, shims, classes, schema.json and docs.
// (The generator runs as its own process: it formats with Prettier, which jest cannot load.)
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { toKebab } from "../../../api/names";
import { KIND_NAMES } from "../../../provider/kinds/registry";
import dynamicDoor from "../../../provider/resources/dynamic";
import { install } from "../../../provider/resources/install";
import * as shims from "../../../provider/resources/shim";

// The first door, as the dynamic door's providers call it at configure().
jest.mock("../../../provider/resources/install", () => ({ install: jest.fn(() => Promise.resolve()) }));

const ROOT = path.resolve(__dirname, "../../..");

function gen(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(path.join(ROOT, "node_modules/.bin/ts-node"), ["--transpile-only", path.join(ROOT, "scripts/gen.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const genCheck = (root: string) => gen("--check", "--root", root);

/** A line of `--list`: a file's path, alone. */
const LISTED = /^[\w./-]+$/;

let checkedAndListed: { status: number | null; listed: string[]; rest: string } | undefined;
/**
 * One `gen --check --list` of this checkout, for the check's test and the list's: each spawn
 * generates every file anew (seconds of CPU). The list's lines are paths; the rest is the check's.
 */
function checkAndList(): { status: number | null; listed: string[]; rest: string } {
  if (checkedAndListed) return checkedAndListed;
  const { status, output } = gen("--check", "--list");
  const lines = output.split("\n").filter((line) => line !== "");
  const rest = lines.filter((line) => !LISTED.test(line)).join("\n");
  checkedAndListed = { status, listed: lines.filter((line) => LISTED.test(line)), rest };
  return checkedAndListed;
}

/** Pages gen writes only between their tables' markers: the rest is prose, not generated. */
const PROSE_WITH_TABLES = ["README.md", "docs/migrate-from-terraform.md", "docs/emulator.md", "docs/features.md"];

/** The `linguist-generated` attribute .gitattributes gives each file. */
function generatedAttribute(files: readonly string[]): Record<string, string> {
  const result = spawnSync("git", ["check-attr", "linguist-generated", "--", ...files], { cwd: ROOT, encoding: "utf8" });
  return Object.fromEntries(
    result.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(": linguist-generated: ") as [string, string]),
  );
}

test("every generated file is committed as `npm run gen` writes it", () => {
  const { status, listed, rest } = checkAndList();
  expect(listed.length).toBeGreaterThan(0);
  expect(rest).toBe("");
  expect(status).toBe(0);
}, 120_000);

// The emulator's collection index is generated too: a kind left out of it by hand is drift.
// Both edits in one copy, so one run of the generator (seconds of CPU) checks both.
test("the check fails on each generated file edited by hand, naming it", () => {
  const edits: Array<[string, (text: string) => string]> = [
    ["provider/resources/generated/subnet.ts", (text) => `${text}// edited by hand\n`],
    ["emulator/generated/collections.ts", (text) => text.replace(/^export \{ LbPoolMember \}.*\n/m, "")],
  ];
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "gen-check-"));
  try {
    for (const prose of PROSE_WITH_TABLES) {
      fs.mkdirSync(path.dirname(path.join(copy, prose)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, prose), path.join(copy, prose));
    }
    for (const [file, edit] of edits) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      expect(edit(text)).not.toBe(text);
      fs.writeFileSync(path.join(copy, file), edit(text));
    }
    const { status, output } = genCheck(copy);
    expect(status).toBe(1);
    for (const [file] of edits) expect(output).toContain(`${file}: differs from what npm run gen writes`);
    expect(output).not.toContain("README.md:");
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
}, 120_000);

test.each(KIND_NAMES)("%s has its generated program module, reference page (with the kind's prose) and emulator collection", (type) => {
  const prose = fs.readFileSync(path.join(ROOT, `provider/kinds/${toKebab(type)}.md`), "utf8").trim();
  expect(fs.readFileSync(path.join(ROOT, `docs/resources/${toKebab(type)}.md`), "utf8")).toContain(`## How it behaves\n\n${prose}\n`);
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as {
    resources: Record<string, { description: string }>;
  };
  expect(schema.resources[`cims:index:${type}`].description).toContain(prose);
  expect(fs.readFileSync(path.join(ROOT, `provider/resources/generated/${toKebab(type)}.ts`), "utf8")).toContain(
    `export class ${type} extends`,
  );
  expect(fs.readFileSync(path.join(ROOT, `docs/resources/${toKebab(type)}.md`), "utf8")).toContain(`# ${type}\n`);
  expect(fs.readFileSync(path.join(ROOT, "provider/resources/generated/native.ts"), "utf8")).toContain(`"cims:index:${type}"`);
  expect(fs.readFileSync(path.join(ROOT, "emulator/generated/collections.ts"), "utf8")).toContain(
    `export { ${type} } from "../collections/${toKebab(type)}";`,
  );
});

test("every file `npm run gen` writes is marked generated in .gitattributes, and its code sits in generated/ folders", () => {
  const { status, listed } = checkAndList();
  expect(status).toBe(0);
  const files = listed.filter((file) => !PROSE_WITH_TABLES.includes(file));
  // Both SDKs are listed, file by file: gen owns their directories whole.
  expect(files).toEqual(expect.arrayContaining(["sdk/python/pulumi_cims/subnet.py", "sdk/java/src/main/java/com/pulumi/cims/Subnet.java"]));
  const marks = generatedAttribute([...files, "provider/resources/install.ts", "provider/resources/outputs.ts"]);
  expect(Object.entries(marks).filter(([file, mark]) => (mark === "true" || mark === "set") !== files.includes(file))).toEqual([]);
  // One path is fixed: the shims existing stacks' state loads. The package's entry point is
  // written by hand and re-exports generated/index.ts.
  const fixed = ["provider/resources/shim.ts"];
  expect(files.filter((file) => file.endsWith(".ts") && !file.includes("/generated/") && !fixed.includes(file))).toEqual([]);
}, 120_000);

// The text of every shim is stored twice in the state of every resource of a stack that used
// it, and loaded by the dynamic-provider host: module text whose handler() gives the provider
// object of its kind from the dynamic door, which, configured, enters the first door with that
// kind. Generating it must keep it to the byte.
test.each(KIND_NAMES)("the %s shim is the frozen text, and configuring what it makes enters the door with its kind", async (type) => {
  const text: unknown = Object.entries(shims).find(([name]) => name === `${type[0].toLowerCase()}${type.slice(1)}Shim`)?.[1];
  expect(text).toBe(`exports.handler=()=>require('pulumi-cims/dynamic').${type}`);
  // Small: the closure serializer's text of the same object was 574 B, the text before this one 119 B.
  expect(Buffer.byteLength(String(text))).toBeLessThanOrEqual(80);
  // Loaded as the host loads it (a module's text), with require answering for the dynamic door.
  const installed = jest.mocked(install).mockClear();
  const required: string[] = [];
  const module = { exports: {} as { handler?: () => { configure(req: unknown): Promise<void> } } };
  new Function("exports", "require", "module", String(text))(module.exports, (id: string) => (required.push(id), dynamicDoor), module);
  expect(required).toEqual([]);
  const provider = module.exports.handler?.();
  expect(required).toEqual(["pulumi-cims/dynamic"]);
  expect(Object.keys(provider ?? {})).toEqual(["configure"]);
  // The host caches one provider per text: the same object again, one per kind.
  expect(module.exports.handler?.()).toBe(provider);
  const req = { config: {} };
  await provider?.configure(req);
  expect(installed.mock.calls).toEqual([[provider, type, req]]);
});

// The texts the version before wrote stay in states until an up rewrites each resource: they
// enter the first door themselves, so its path and signature stay as they were.
test.each(KIND_NAMES)("the %s text earlier versions wrote still enters the first door with its kind", async (type) => {
  const text = `exports.handler=()=>({configure(q){return require('pulumi-cims/provider/resources/install').install(this,'${type}',q)}})`;
  const door = jest.requireActual<typeof import("../../../provider/resources/install")>("../../../provider/resources/install");
  expect(door.install).toHaveLength(3);
  const calls: unknown[][] = [];
  const required: string[] = [];
  const module = { exports: {} as { handler?: () => { configure(req: unknown): Promise<void> } } };
  const fake = { install: (...args: unknown[]) => (calls.push(args), Promise.resolve()) };
  new Function("exports", "require", "module", text)(module.exports, (id: string) => (required.push(id), fake), module);
  const provider = module.exports.handler?.();
  const req = { config: {} };
  await provider?.configure(req);
  expect(required).toEqual(["pulumi-cims/provider/resources/install"]);
  expect(calls).toEqual([[provider, type, req]]);
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  expect(manifest.exports["./provider/resources/install"]).toBe("./dist/provider/resources/install.js");
  expect(manifest.exports["./dynamic"]).toBe("./dist/provider/resources/dynamic.js");
});
