// The package schema is rendered from each kind's shape by `npm run gen` into schema.json,
// committed for readers and SDK generators; the plugin serves that file, and the package ships it.
import * as fs from "node:fs";
import * as path from "node:path";
import { providerPb } from "../../../../provider/plugin/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { packageSchema } from "../../../../scripts/package-schema";

const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8")) as { version: string };

test("schema.json is the schema the plugin serves (run `npm run gen` after changing a contract)", () => {
  const committed = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../../schema.json"), "utf8"));
  expect(committed).toEqual(packageSchema(version));
});

test("the plugin answers GetSchema with the committed schema.json, which the package ships and exports", async () => {
  const handlers = providerServer(undefined) as Record<string, (call: unknown, done: (err: unknown, reply: unknown) => void) => void>;
  const reply = await new Promise<unknown>((resolve, reject) =>
    handlers.getSchema({ request: new providerPb.GetSchemaRequest() }, (err, r) => (err ? reject(err) : resolve(r))),
  );
  const committed: unknown = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../../schema.json"), "utf8"));
  expect(reply instanceof providerPb.GetSchemaResponse && JSON.parse(reply.getSchema())).toEqual(committed);
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../../../package.json"), "utf8")) as {
    files: string[];
    exports: Record<string, unknown>;
  };
  expect(manifest.files).toContain("schema.json");
  // By name, as the plugin requires it: from dist/ and from the plugin tarball's bundle alike.
  expect(manifest.exports["./schema.json"]).toBe("./schema.json");
});

test("every contract field is an input of its resource, nested objects are named types, int64 numbers are strings", () => {
  const schema = packageSchema(version) as {
    resources: Record<string, { inputProperties: Record<string, { type?: string; $ref?: string }>; requiredInputs: string[] }>;
    types: Record<string, { properties: Record<string, { type?: string; $ref?: string }> }>;
  };
  expect(schema.resources["cims:index:Subnet"].requiredInputs.sort()).toEqual(["cidr", "name", "networkId"]);
  expect(schema.resources["cims:index:LbPoolSettings"].requiredInputs).toEqual(["poolId"]);
  expect(schema.resources["cims:index:Subnet"].inputProperties.hostRoutes).toMatchObject({
    type: "array",
    items: { $ref: "#/types/cims:index:HostRoute" },
  });
  expect(schema.types["cims:index:QuotaEntry"].properties.limit.type).toBe("string");
  expect(schema.types["cims:index:GlobalQuotas"].properties.keypairCountLimit).toMatchObject({ $ref: "#/types/cims:index:QuotaEntry" });
});

type Described = { description?: string; type?: string; $ref?: string };

test("every resource, type, input and output is described in the contract's words, and every output is typed", () => {
  const schema = packageSchema(version) as {
    resources: Record<string, Described & { inputProperties: Record<string, Described>; properties: Record<string, Described> }>;
    types: Record<string, Described & { properties: Record<string, Described> }>;
  };
  const missing: string[] = [];
  const untyped: string[] = [];
  for (const [token, r] of Object.entries(schema.resources)) {
    if (!r.description) missing.push(token);
    for (const [name, p] of Object.entries(r.inputProperties)) if (!p.description) missing.push(`${token} input ${name}`);
    for (const [name, p] of Object.entries(r.properties)) {
      if (!p.description) missing.push(`${token} output ${name}`);
      if (!p.type && (!p.$ref || p.$ref.startsWith("pulumi.json#/Any"))) untyped.push(`${token} output ${name}`);
    }
  }
  for (const [token, t] of Object.entries(schema.types)) {
    if (!t.description) missing.push(token);
    for (const [name, p] of Object.entries(t.properties)) if (!p.description) missing.push(`${token}.${name}`);
  }
  expect(missing).toEqual([]);
  expect(untyped).toEqual([]);
  expect(schema.resources["cims:index:Subnet"].inputProperties.cidr.description).toBe(
    "Network in CIDR form, no host bits set (`10.0.0.0/24`). Changing it replaces the resource.",
  );
  expect(schema.resources["cims:index:Subnet"].properties.totalIps).toMatchObject({ type: "string" });
});
