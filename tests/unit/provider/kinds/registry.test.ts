// A resource is one file per layer, each exporting the resource's name: its contract
// (api/contract/<x>.ts), its kind (provider/kinds/<x>.ts, listed in provider/kinds/index.ts)
// and its emulator collection (emulator/collections/<x>.ts, listed in emulator/generated/collections.ts).
// Every list of kinds is derived from that registry; this test checks each kind has its files.
import * as fs from "node:fs";
import * as path from "node:path";
import { createApp } from "../../../../emulator/app";
import * as collections from "../../../../emulator/generated/collections";
import { Collections } from "../../../../emulator/store/collections";
import { toKebab } from "../../../../api/names";
import { isKind, KIND_NAMES, kind } from "../../../../provider/kinds/registry";
import { operationsOf, requestsOf } from "../../../../api/contract";
import { READ_ONLY } from "../../../../api/contract/read-only";

const ROOT = path.resolve(__dirname, "../../../..");

test("the registry lists the kinds in order, each once", () => {
  expect(KIND_NAMES).toEqual([
    "Subnet",
    "BaremetalImage",
    "LbPoolSettings",
    "SnapshotPolicy",
    "SnapshotPolicyState",
    "QuotaThreshold",
    "LbPoolMember",
    "SnapshotPolicyVolume",
  ]);
});

/** A module's export by name (jest runs CommonJS: its require, not import()). */
const exported = (file: string, name: string): unknown => Object.entries(jest.requireActual<object>(file)).find(([n]) => n === name)?.[1];

test.each(KIND_NAMES)("%s: its contract and its kind are files of its name, exporting its name, its prose beside it", (type) => {
  const contractFile = path.join(ROOT, `api/contract/${toKebab(type)}.ts`);
  const kindFile = path.join(ROOT, `provider/kinds/${toKebab(type)}.ts`);
  expect(fs.existsSync(contractFile)).toBe(true);
  expect(fs.existsSync(kindFile)).toBe(true);
  // What it does beyond its table, beside it: its reference page and schema description carry it.
  expect(fs.readFileSync(path.join(ROOT, `provider/kinds/${toKebab(type)}.md`), "utf8").trim()).not.toBe("");
  const contract = exported(contractFile, type);
  const entry = exported(kindFile, type);
  expect(contract).toBe(kind(type).descriptor.contract);
  expect(entry).toMatchObject({ descriptor: kind(type).descriptor });
  expect(kind(type).descriptor.contract.name).toBe(type);
  const collectionFile = path.join(ROOT, `emulator/collections/${toKebab(type)}.ts`);
  expect(fs.existsSync(collectionFile)).toBe(true);
  expect(exported(collectionFile, type)).toBe(Object.entries(collections).find(([name]) => name === type)?.[1]);
  expect(typeof exported(collectionFile, type)).toBe("object");
});

test("the emulator serves exactly the registry's kinds", () => {
  expect(Object.keys(collections).sort()).toEqual([...KIND_NAMES].sort());
});

test("api/contract/ holds the vocabulary and one file per kind and per read-only record; its index lists no kind", () => {
  const shared = ["common.ts", "derive.ts", "index.ts", "operations.ts", "types.ts", "read-only.ts"];
  const files = fs.readdirSync(path.join(ROOT, "api/contract")).filter((f) => !shared.includes(f));
  const named = [...KIND_NAMES, ...Object.keys(READ_ONLY)];
  expect(files.sort()).toEqual(named.map((k) => `${toKebab(k)}.ts`).sort());
  for (const [name, contract] of Object.entries(READ_ONLY)) {
    expect(contract.name).toBe(name);
    expect(exported(path.join(ROOT, `api/contract/${toKebab(name)}.ts`), name)).toBe(contract);
  }
  expect(Object.keys(jest.requireActual<object>(path.join(ROOT, "api/contract/index.ts")))).not.toEqual(
    expect.arrayContaining([expect.stringMatching(new RegExp(`^(${KIND_NAMES.join("|")})$`))]),
  );
});

test("the emulator keeps the API's own collections, then those the resources declare, each once", () => {
  expect(new Collections(Object.values(collections)).names).toEqual([
    "projects",
    "regions",
    "networks",
    "routers",
    "volumes",
    "instances",
    "subnets",
    "images",
    "lbpools",
    "lifecycle_policies",
    "client_quotas",
  ]);
  expect(() => new Collections([collections.Subnet, collections.Subnet])).toThrow('two collections named "subnets"');
  expect(() => new Collections([]).spec("subnets")).toThrow('the emulator keeps no collection "subnets"');
});

test.each(KIND_NAMES)("%s: every call names one of its paths, and each body the vendor SDK's request type", (type) => {
  const contract = kind(type).descriptor.contract;
  expect(() => operationsOf(contract)).not.toThrow();
  const requests = requestsOf(contract);
  expect(requests.length).toBeGreaterThan(0);
  for (const r of requests) expect(r.sdk).toMatch(/^gcore\.types\.[a-z_.]+\.[A-Z][A-Za-z]+Params$/);
  for (const op of operationsOf(contract)) {
    if (op.response) expect(op.response).toMatch(/^gcore\.types\.[a-z_.]+\.[A-Z][A-Za-z]+$/);
    if (op.created) expect(op.task).toBeDefined();
  }
});

// The docs' own lists follow the registry and the emulator's routes: a kind or a route added
// without its line in the docs fails here.
const KIND_SET = [...KIND_NAMES].sort();

/** The kinds a piece of markdown names in backticks (`Subnet`), each once, sorted. */
const kindsNamed = (text: string): string[] =>
  [...new Set([...text.matchAll(/`([A-Z][A-Za-z]+)`/g)].map((m) => m[1]).filter(isKind))].sort();

/** A markdown file's paragraphs (blocks between blank lines; a table is one), code blocks left out. */
function paragraphs(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8").replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  return text.split(/\n\s*\n/);
}

// The kinds are listed once, in the generated table: a list written by hand goes stale with the next kind.
test("README.md lists the kinds only in its generated resource table, and that table names every kind", () => {
  const lists = paragraphs("README.md").filter((p) => kindsNamed(p).length >= 3);
  expect(lists).toHaveLength(1);
  expect(lists[0]).toContain("<!-- resources:begin");
  expect(kindsNamed(lists[0])).toEqual(KIND_SET);
});

test("docs/platform.md's sentence on the plugin's types points at the README's generated table instead of listing the kinds", () => {
  const sentence = paragraphs("docs/platform.md").find((p) => p.includes("`cims:index:<Kind>`"));
  expect(sentence).toContain("README's table");
  expect(kindsNamed(sentence ?? "")).toEqual([]);
});

/** A call as `METHOD /path/{}`: parameters unnamed (the docs abbreviate them), no query. */
const call = (method: string, route: string) => `${method} ${route.split("?")[0].replace(/\{[^}]*\}|:[a-z_]+/g, "{}")}`;

/** The calls docs/emulator.md's API table names: `GET`, `PATCH`, `DELETE /path` is three. */
function documentedCalls(): string[] {
  const text = fs.readFileSync(path.join(ROOT, "docs/emulator.md"), "utf8");
  const section = text.slice(text.indexOf("## API coverage"), text.indexOf("\n## ", text.indexOf("## API coverage") + 1));
  const calls: string[] = [];
  for (const row of section.split("\n").filter((l) => l.startsWith("| `"))) {
    let methods: string[] = [];
    for (const [, span] of row.split("|")[1].matchAll(/`([^`]+)`/g)) {
      const m = /^([A-Z]+)(?: (\/\S+))?$/.exec(span);
      if (!m) continue;
      methods.push(m[1]);
      if (!m[2]) continue;
      calls.push(...methods.map((method) => call(method, m[2])));
      methods = [];
    }
  }
  return calls.sort();
}

test("docs/emulator.md's API table names every route the emulator serves, and no other", () => {
  const served = createApp({ apiKey: "k" })
    .api.list()
    .map((r) => call(r.split(" ")[0], r.split(" ")[1]))
    .sort();
  expect(served).toContain("POST /cloud/v1/loadbalancers/{}/{}/pools/{}/members");
  expect(documentedCalls()).toEqual(served);
});
