// What `npm run gen` writes from the lookups (api/lookups.ts): their TypeScript module
// (provider/resources/generated/lookups.ts: each lookup's Args and Result, and its functions on
// both faces), the schema's `functions` and the types of their list answers, and each lookup's
// reference page (docs/functions/<name>.md).
import { LOOKUPS, type Lookup, type LookupName, type LookupType } from "../api/lookups";
import { toCamel, toKebab } from "../api/names";
import { type ExampleProgram, item, lookup } from "../provider/kinds/program-model";

type Json = Record<string, unknown>;

const upperFirst = (name: string) => name[0].toUpperCase() + name.slice(1);
const TS: Readonly<Record<LookupType, string>> = {
  string: "string",
  integer: "number",
  number: "number",
  boolean: "boolean",
  strings: "string[]",
};
const SCHEMA: Readonly<Record<LookupType, Json>> = {
  string: { type: "string" },
  integer: { type: "integer" },
  number: { type: "number" },
  boolean: { type: "boolean" },
  strings: { type: "array", items: { type: "string" } },
};
const SCOPE_INPUTS = [
  { name: "projectId", type: "integer" as const, doc: "The project to look in. Default: the provider's `cims:projectId`." },
  { name: "regionId", type: "integer" as const, doc: "The region to look in. Default: the provider's `cims:regionId`." },
];

/** A lookup's arguments: its filters, then the scope where it has one. */
export function lookupInputs(l: Lookup): Array<{ name: string; type: LookupType; doc: string }> {
  return [...l.filters, ...(l.scope === "project-region" ? SCOPE_INPUTS : [])];
}

/** Fields every record holds (Go's SDK gives them plain, not as pointers), beside those a lookup marks `always`. */
const ALWAYS = new Set(["id", "name"]);

/** The fields of what a lookup answers for one record, by their camelCase names. */
const recordFields = (l: Lookup) =>
  l.outputs.map((o) => {
    const name = toCamel(o.wire);
    return { name, type: o.type, doc: o.doc, always: ALWAYS.has(name) || o.always === true };
  });

function interfaceOf(name: string, doc: string, fields: Array<{ name: string; type: string; doc: string; optional?: boolean }>): string {
  const lines = fields.map((f) => `  /** ${f.doc} */\n  readonly ${f.name}${f.optional ? "?" : ""}: ${f.type};\n`).join("");
  return `\n/** ${doc} */\nexport interface ${name} {\n${lines}}\n`;
}

function lookupTypes(l: Lookup): string {
  const Name = upperFirst(l.name);
  const inputs = lookupInputs(l);
  let text = interfaceOf(
    `${Name}Args`,
    `The arguments of \`${l.name}\`.`,
    inputs.map((i) => ({ ...i, type: TS[i.type], optional: true })),
  );
  text += interfaceOf(
    `${Name}OutputArgs`,
    `The arguments of \`${l.name}Output\`: each may be an Output.`,
    inputs.map((i) => ({ ...i, type: `pulumi.Input<${TS[i.type]}>`, optional: true })),
  );
  const fields = recordFields(l).map((f) => ({ ...f, type: TS[f.type], optional: !f.always }));
  if (!l.many) return text + interfaceOf(`${Name}Result`, `What \`${l.name}\` finds.`, fields);
  text += interfaceOf(l.many.type, `One ${l.many.field.replace(/s$/, "")} of what \`${l.name}\` finds.`, fields);
  return (
    text +
    interfaceOf(`${Name}Result`, `What \`${l.name}\` finds.`, [
      { name: l.many.field, type: `${l.many.type}[]`, doc: `Every match, in the service's order.` },
    ])
  );
}

/** The default face: the lookup run in the program's process, with the stack's `cims:*` config. */
function dynamicFunctions(l: Lookup): string {
  const Name = upperFirst(l.name);
  return (
    `\n/** ${l.doc} Read in the program's process with the stack's \`cims:*\` config; see docs/functions/${toKebab(l.name)}.md. */\n` +
    `export function ${l.name}(args: ${Name}Args = {}): Promise<${Name}Result> {\n` +
    `  return programLookup("${l.name}", args);\n}\n\n` +
    `/** \`${l.name}\` over Outputs: waits for its arguments, and answers an Output. */\n` +
    `export function ${l.name}Output(args: ${Name}OutputArgs = {}): pulumi.Output<${Name}Result> {\n` +
    `  return pulumi.output(args).apply((given) => ${l.name}(given));\n}\n`
  );
}

/** The plugin face: `cims.native.get<Name>`, an Invoke of `cims:index:get<Name>`. */
function nativeFunctions(l: Lookup): string {
  const Name = upperFirst(l.name);
  return (
    `\n/** ${l.doc} Served by the plugin's Invoke (\`cims:index:${l.name}\`). */\n` +
    `export function ${l.name}(args: ${Name}Args = {}, opts?: pulumi.InvokeOptions): Promise<${Name}Result> {\n` +
    `  return pulumi.runtime.invoke("cims:index:${l.name}", { ...args }, { version: VERSION, ...opts });\n}\n\n` +
    `/** \`cims.native.${l.name}\` over Outputs. */\n` +
    `export function ${l.name}Output(args: ${Name}OutputArgs = {}, opts?: pulumi.InvokeOutputOptions): pulumi.Output<${Name}Result> {\n` +
    `  return pulumi.runtime.invokeOutput("cims:index:${l.name}", { ...args }, { version: VERSION, ...opts });\n}\n`
  );
}

/** provider/resources/generated/lookups.ts: the types and the default face's functions. */
export function lookupsModule(header: string): string {
  let text =
    `${header}\n` +
    "// The lookups (api/lookups.ts) on the default face: `cims.getSubnet(args)` answers a Promise and\n" +
    "// `cims.getSubnetOutput(args)` an Output, as registry SDKs' functions do. Each runs in the\n" +
    "// program's own process (there is no plugin to invoke), loading the lookup code at its first call.\n" +
    'import * as pulumi from "@pulumi/pulumi";\n' +
    'import { programLookup } from "../lookup";\n';
  for (const l of LOOKUPS) text += lookupTypes(l) + dynamicFunctions(l);
  return text;
}

/** The plugin face's functions, for native.ts, and the names of the types they use. */
export function nativeLookups(): { text: string; types: string[] } {
  const types = LOOKUPS.flatMap((l) => [`${upperFirst(l.name)}Args`, `${upperFirst(l.name)}OutputArgs`, `${upperFirst(l.name)}Result`]);
  return { text: LOOKUPS.map(nativeFunctions).join(""), types };
}

/** Every type name lookups.ts exports, for the package's index. */
export function lookupTypeNames(): string[] {
  return LOOKUPS.flatMap((l) => [
    `${upperFirst(l.name)}Args`,
    `${upperFirst(l.name)}OutputArgs`,
    `${upperFirst(l.name)}Result`,
    ...(l.many ? [l.many.type] : []),
  ]);
}

const property = (f: { type: LookupType; doc: string }): Json => ({ ...SCHEMA[f.type], description: f.doc });

function objectOf(fields: Array<{ name: string; type: LookupType; doc: string; always: boolean }>, description: string): Json {
  const required = fields.filter((f) => f.always).map((f) => f.name);
  return {
    type: "object",
    description,
    properties: Object.fromEntries(fields.map((f) => [f.name, property(f)])),
    ...(required.length ? { required } : {}),
  };
}

/** The schema's `functions` and the types of the list answers' items. */
export function schemaFunctions(): { functions: Json; types: Json } {
  const functions: Json = {};
  const types: Json = {};
  for (const l of LOOKUPS) {
    const inputs = lookupInputs(l);
    const inputsSchema = {
      type: "object",
      properties: Object.fromEntries(inputs.map((i) => [i.name, property(i)])),
      // An empty list is left out, as the engine's own reading of the schema leaves it
      // (`pulumi package get-schema` prints the plugin's schema without it).
      ...(l.required?.length ? { required: l.required } : {}),
    };
    let outputs: Json;
    if (l.many) {
      types[`cims:index:${l.many.type}`] = objectOf(recordFields(l), `One ${l.many.field.replace(/s$/, "")} of what ${l.name} finds.`);
      outputs = {
        type: "object",
        properties: {
          [l.many.field]: { type: "array", items: { $ref: `#/types/cims:index:${l.many.type}` }, description: "Every match." },
        },
        required: [l.many.field],
      };
    } else outputs = objectOf(recordFields(l), `What ${l.name} finds.`);
    functions[`cims:index:${l.name}`] = { description: l.doc, inputs: inputsSchema, outputs };
  }
  return { functions, types };
}

/** The fields every record of a lookup holds, for its page: "`id` always is", "`id`, `clientId` and `name` always are". */
function alwaysThere(l: Lookup): string {
  const names = recordFields(l)
    .filter((f) => f.always)
    .map((f) => `\`${f.name}\``);
  if (names.length < 2) return `${names.join("")} always is`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} always are`;
}

/** docs/functions/<name>.md: what the lookup reads, its arguments and its answer. */
export function lookupDoc(l: Lookup): string {
  const row = (f: { name: string; type: LookupType; doc: string }) => `| \`${f.name}\` | ${TS[f.type]} | ${f.doc.replace(/\|/g, "\\|")} |`;
  const answer = l.many
    ? `\`${l.many.field}\`: a list, each item with these fields:\n\n`
    : `One record's fields (a field the record does not hold is absent; ${alwaysThere(l)} there):\n\n`;
  return [
    `# ${l.name}`,
    "",
    "<!-- Generated by `npm run gen` from api/lookups.ts: edit that, then run it. -->",
    "",
    l.doc,
    "",
    `Token \`cims:index:${l.name}\`: \`cims.${l.name}(args)\` (a Promise) and \`cims.${l.name}Output(args)\` (an Output) on the default face, \`cims.native.${l.name}\` and the generated SDKs on the plugin face, \`fn::invoke\` in YAML. It reads \`GET ${l.path}\` once per ${l.scope === "none" ? "run" : "project and region in a run"}, whichever filters the calls give, and filters the records (the vendor SDK's \`${l.model}\`) itself.`,
    "",
    l.many && !l.many.parts
      ? "Every record the filters match is answered; none is an empty list."
      : `Exactly one ${l.what} must match the filters: none or several fail the program before anything is deployed, naming the filters and the ${l.what}s (ids and names) to choose from.`,
    "",
    "## Arguments",
    "",
    "| Name | Type | Description |",
    "| --- | --- | --- |",
    ...lookupInputs(l).map(row),
    "",
    "## Answer",
    "",
    answer + "| Name | Type | Description |\n| --- | --- | --- |",
    ...recordFields(l).map(row),
    "",
  ].join("\n");
}

/**
 * Each lookup's example on its page (docs/functions/<name>.md, in every language by the docs
 * examples' renderers): it finds a record by name (or a natural filter), and the stack exports
 * what it found: a scalar, a list lookup's first record's field. tests/e2e/tools/docs-examples.test.ts
 * deploys them beside the kinds', on the emulator's seed and, in project 2, region 3 (where the
 * kinds' examples make nothing, so each lookup there finds what the page says), a subnet, an
 * image and a pool member of its own.
 * (`never`: they declare no resource, so they combine with any kind's.)
 */
export const LOOKUP_EXAMPLES: Partial<Record<LookupName, ExampleProgram<never>>> = {
  getProject: {
    doc: "The id of the project named `default`, exported.",
    declarations: [],
    outputs: { foundProjectId: lookup("getProject", { name: "default" }, "id") },
  },
  getRegion: {
    doc: "The id of the region named `Luxembourg`, exported.",
    declarations: [],
    outputs: { foundRegionId: lookup("getRegion", { name: "Luxembourg" }, "id", "region-id") },
  },
  getNetwork: {
    doc: "The id of the network named `demo-net` in the provider's project and region, exported (a subnet's `networkId` takes it the same way).",
    declarations: [],
    outputs: { foundNetworkId: lookup("getNetwork", { name: "demo-net" }, "id") },
  },
  getSubnet: {
    doc: "The id of the subnet named `db` in another project and region than the provider's (2 and 3), exported (a pool member's `subnetId` takes it the same way).",
    declarations: [],
    outputs: { foundSubnetId: lookup("getSubnet", { name: "db", projectId: 2, regionId: 3 }, "id") },
  },
  getSubnets: {
    doc: "The subnets named `db` in another project and region than the provider's (2 and 3), a list in the service's order; the stack exports the first one's CIDR. None is an empty list, not a failure: a program that may find none reads the list's length before an item.",
    declarations: [],
    outputs: { foundSubnetCidr: item(lookup("getSubnets", { name: "db", projectId: 2, regionId: 3 }, "subnets"), 0, "cidr") },
  },
  getImage: {
    doc: "The id of the bare metal image of Ubuntu 24.04 in another project and region than the provider's (2 and 3), found by what it is rather than by its name, exported.",
    declarations: [],
    outputs: {
      foundImageId: lookup("getImage", { isBaremetal: true, osDistro: "ubuntu", osVersion: "24.04", projectId: 2, regionId: 3 }, "id"),
    },
  },
  getVolume: {
    doc: "The id of the volume named `golden-root`, exported (a bare metal image's `volumeId` takes it the same way).",
    declarations: [],
    outputs: { foundVolumeId: lookup("getVolume", { name: "golden-root" }, "id") },
  },
  getPool: {
    doc: "The id of the load balancer pool named `web-pool`, exported (a pool member's or the pool settings' `poolId` takes it the same way).",
    declarations: [],
    outputs: { foundPoolId: lookup("getPool", { name: "web-pool" }, "id") },
  },
  getPoolMembers: {
    doc: "The members of the load balancer pool named `api-pool` in another project and region than the provider's (2 and 3), whichever stack added them, a list in the service's order (by address and port); the stack exports the first one's address.",
    declarations: [],
    outputs: {
      foundMemberAddress: item(lookup("getPoolMembers", { poolName: "api-pool", projectId: 2, regionId: 3 }, "members"), 0, "address"),
    },
  },
  getSnapshotPolicy: {
    doc: "The id of the snapshot policy named `nightly-snapshots`, exported (SnapshotPolicyState's and SnapshotPolicyVolume's `policyId` take it the same way).",
    declarations: [],
    outputs: { foundPolicyId: lookup("getSnapshotPolicy", { name: "nightly-snapshots" }, "id") },
  },
};
