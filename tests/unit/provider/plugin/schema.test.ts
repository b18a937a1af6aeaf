// The package schema is rendered from each kind's shape by `npm run gen` into schema.json,
// committed for readers and SDK generators; the plugin serves that file, and the package ships it.
import * as fs from "node:fs";
import * as path from "node:path";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import type { FieldType, IntegerType, StringType } from "../../../../api/contract";
import { GO_SDK_PACKAGE } from "../../../../provider/import/render";
import { KIND_NAMES, kind } from "../../../../provider/kinds/registry";
import { nestedTypes, shapeOf } from "../../../../provider/methods/shape";
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
    for (const [name, p] of Object.entries(t.properties ?? {})) if (!p.description) missing.push(`${token}.${name}`);
  }
  expect(missing).toEqual([]);
  expect(untyped).toEqual([]);
  expect(schema.resources["cims:index:Subnet"].inputProperties.cidr.description).toBe(
    "Network in CIDR form, no host bits set (`10.0.0.0/24`). Changing it replaces the resource.",
  );
  expect(schema.resources["cims:index:Subnet"].properties.totalIps).toMatchObject({ type: "string" });
});

type Schema = {
  resources: Record<string, { inputProperties: Record<string, Described>; properties: Record<string, Described>; required: string[] }>;
  types: Record<string, Described & { enum?: Array<{ value: string | number; name: string }>; properties?: Record<string, Described> }>;
  language: { python: Record<string, unknown>; go: { importBasePath: string } };
  repository: string;
};

type EnumField = StringType | IntegerType;

/** Every field of a table (a resource's inputs, a nested type's fields) with a fixed set of values, by `<where>.<name>`. */
function enumFields(where: string, fields: Record<string, { type: FieldType }>): Array<[string, EnumField]> {
  return Object.entries(fields).flatMap(([name, f]): Array<[string, EnumField]> =>
    (f.type.kind === "string" || f.type.kind === "integer") && f.type.enum !== undefined ? [[`${where}.${name}`, f.type]] : [],
  );
}

test("every field with a fixed set of values is an enum type of the schema, named, each value named, referenced by $ref", () => {
  const schema = packageSchema(version) as Schema;
  const fields: Array<[string, EnumField, Described | undefined]> = [];
  for (const type of KIND_NAMES) {
    const shape = shapeOf(kind(type).descriptor);
    const inputs = Object.fromEntries(shape.inputs.map((i) => [i.name, i.field]));
    const props = schema.resources[`cims:index:${type}`].inputProperties;
    for (const [name, t] of enumFields(type, inputs)) fields.push([name, t, props[name.split(".")[1]]]);
    for (const nested of nestedTypes(shape.nested.values()).values())
      for (const [name, t] of enumFields(nested.name, nested.fields))
        fields.push([name, t, schema.types[`cims:index:${nested.name}`].properties?.[name.split(".")[1]]]);
  }
  // lbAlgorithm, protocol, status, osType, ... and the nested health monitor's and session persistence's types.
  expect(fields.map(([name]) => name)).toEqual(
    expect.arrayContaining([
      "LbPoolSettings.lbAlgorithm",
      "LbPoolSettings.protocol",
      "HealthMonitor.type",
      "SnapshotPolicyState.status",
      "Subnet.ipVersion",
    ]),
  );
  for (const [name, t, property] of fields) {
    const ref = property?.$ref ?? `(${name} has no $ref)`;
    const enumType = schema.types[ref.replace("#/types/", "")];
    // An integer's enum is of numbers: Pulumi's Java SDK serializes an enum over a Double or a String only.
    expect({ name, type: enumType?.type }).toEqual({ name, type: t.kind === "integer" ? "number" : "string" });
    expect(enumType.enum?.map((e) => e.value)).toEqual([...(t.enum ?? []), ...(t.kind === "string" ? Object.keys(t.aliases ?? {}) : [])]);
    for (const e of enumType.enum ?? []) expect(e.name).toMatch(/^[A-Z][A-Za-z0-9_]*$/);
  }
  expect(schema.types["cims:index:LbAlgorithm"]).toEqual({
    type: "string",
    description: "How the pool spreads connections.",
    enum: [
      { value: "LEAST_CONNECTIONS", name: "LeastConnections" },
      { value: "ROUND_ROBIN", name: "RoundRobin" },
      { value: "SOURCE_IP", name: "SourceIp" },
    ],
  });
  expect(schema.types["cims:index:IpVersion"]).toMatchObject({
    type: "number",
    enum: [
      { value: 4, name: "V4" },
      { value: 6, name: "V6" },
    ],
  });
  expect(schema.types["cims:index:ImageHwMachineType"].enum?.map((e) => e.name)).toEqual(["Pc", "Q35", "I440"]);
});

test("the outputs every state holds are required (Go's plain outputs); what the service may omit or null is not", () => {
  const { resources } = packageSchema(version) as Schema;
  const required = (type: string) => [...resources[`cims:index:${type}`].required].sort();
  // A required input, a default the provider writes, a field every record carries, or what the provider derives.
  expect(required("Subnet")).toEqual(
    [
      "cidr",
      "connectToNetworkRouter",
      "createdAt",
      "enableDhcp",
      "ipVersion",
      "name",
      "networkId",
      "readOnlyTags",
      "tags",
      "taskIds",
    ].sort(),
  );
  expect(required("BaremetalImage")).toEqual(
    [
      "architecture",
      "createdAt",
      "isBaremetal",
      "name",
      "osType",
      "readOnlyTags",
      "source",
      "sshKey",
      "status",
      "tags",
      "taskIds",
      "volumeId",
    ].sort(),
  );
  expect(required("LbPoolMember")).toEqual(
    ["address", "adminStateUp", "backup", "operatingStatus", "poolId", "protocolPort", "taskIds", "weight"].sort(),
  );
  expect(required("SnapshotPolicyState")).toEqual(["action", "name", "policyId", "schedules", "status", "taskIds", "userId"].sort());
  // Settings managed only when given; a threshold's last message the vendor's model allows to be absent.
  expect(required("LbPoolSettings")).toEqual(["poolId", "taskIds"]);
  expect(required("QuotaThreshold")).toEqual(["clientId", "taskIds", "threshold"]);
  for (const [token, r] of Object.entries(resources)) {
    expect({ token, unknown: r.required.filter((name) => !(name in r.properties)) }).toEqual({ token, unknown: [] });
  }
});

test("the SDKs' metadata: the repository's Go import path, cims-import's; Python's requirements", () => {
  const schema = packageSchema(version) as Schema;
  expect(schema.repository).toBe("https://github.com/pulumi-cims/pulumi-cims");
  expect(schema.language.go.importBasePath).toBe("github.com/pulumi-cims/pulumi-cims/sdk/go/cims");
  expect(GO_SDK_PACKAGE).toBe(schema.language.go.importBasePath);
  expect(schema.language.python).toMatchObject({ requires: { pulumi: ">=3.231.0,<4.0.0" }, pythonRequires: ">=3.9" });
  // The committed Python SDK carries them (python-program.test.ts checks it is what the generator writes).
  const pyproject = fs.readFileSync(path.resolve(__dirname, "../../../../sdk/python/pyproject.toml"), "utf8");
  expect(pyproject).toContain(`version = "${version}"`);
  expect(pyproject).toContain('"pulumi>=3.231.0,<4.0.0"');
  expect(pyproject).toContain('requires-python = ">=3.9"');
  expect(pyproject).toMatch(/Homepage = "https:\/\/github\.com\/pulumi-cims\/pulumi-cims#readme"/);
  expect(pyproject).toMatch(/Repository = "https:\/\/github\.com\/pulumi-cims\/pulumi-cims"/);
  expect(pyproject).toContain('text = "Apache-2.0"');
});
