// The Pulumi package schema of `pulumi-resource-cims`, rendered by `npm run gen` into
// schema.json from each kind's shape (provider/methods/shape.ts: its inputs, outputs and
// nested types with their words) and the provider's configuration (config.ts's table) with `apiKey` secret. The
// plugin serves the committed file (`pulumi package get-schema` prints it; YAML programs are
// type-checked against it; `pulumi import` writes code from it): none of this ships.
import * as fs from "node:fs";
import * as path from "node:path";
import { type Field, type FieldType, fieldDoc, type IntegerType, type ObjectType, type StringType } from "../api/contract";
import { enumMemberName, toCamel, toKebab } from "../api/names";
import { CONFIG_KEYS, CONFIG_TABLE, type ConfigEntry } from "../provider/config";
import { nestedTypes, shapeOf } from "../provider/methods/shape";
import type { Kind } from "../provider/kinds/registry";
import { KIND_NAMES, kind } from "../provider/kinds/registry";
import { schemaFunctions } from "./gen-lookups";

type Json = Record<string, unknown>;
type Property = Json;

type Enum = (StringType & { enum: readonly string[] }) | (IntegerType & { enum: readonly number[] });

/**
 * A string or an integer with a fixed set of values. An integer one (a subnet's `ipVersion`, 4 or
 * 6) is an enum of type `number`, not `integer`: Pulumi's Java SDK (com.pulumi:pulumi 1.12.0)
 * serializes an enum only over a Double or a String, while its code generator writes an integer
 * enum over an Integer, so a Java program that set one failed at run time
 * (UnsupportedOperationException: "... return type of Double or String, got ... Integer");
 * .NET's SDK takes Double or String as well. The wire carries the same number either way, and
 * the provider checks it is 4 or 6.
 */
const isEnum = (t: FieldType): t is Enum => (t.kind === "string" || (t.kind === "integer" && !t.int64)) && t.enum !== undefined;

/** An enum's name in the SDKs, which the contract gives it. */
function enumName(t: Enum): string {
  if (!t.name) throw new Error(`the enum of ${t.enum.join(", ")} has no name: give oneOf() the name the SDKs call it`);
  return t.name;
}

/** The schema type of a contract type (int64: decimal strings; enums and nested objects: their named types). */
function typeOf(t: FieldType): Property {
  if (isEnum(t)) return { $ref: `#/types/cims:index:${enumName(t)}` };
  switch (t.kind) {
    case "string":
      return { type: "string" };
    case "integer":
      return t.int64 ? { type: "string", description: "A signed 64-bit integer, as its decimal digits." } : { type: "integer" };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "tags":
      return { type: "object", additionalProperties: { type: "string" } };
    case "array":
      return { type: "array", items: typeOf(t.items) };
    case "object":
      return { $ref: `#/types/cims:index:${t.name}` };
  }
}

/** A field's schema property: its type, described by the contract's words. */
function propertyOf(f: Pick<Field, "type" | "doc" | "nullWord">): Property {
  const p = typeOf(f.type);
  const doc = fieldDoc(f);
  return { ...p, description: typeof p.description === "string" ? `${doc} ${p.description}` : doc };
}

/** A named object type: its fields, and its members by their Pulumi names. */
function objectTypeOf(t: ObjectType): Json {
  const description = t.doc;
  const properties: Json = Object.fromEntries(Object.entries(t.fields).map(([name, f]) => [name, propertyOf(f)]));
  for (const member of t.members?.names ?? [])
    properties[toCamel(member)] = propertyOf({ type: t.members!.type, doc: `The ${t.members!.what} \`${toCamel(member)}\`.` });
  const required = Object.entries(t.fields)
    .filter(([, f]) => f.required)
    .map(([name]) => name);
  return { type: "object", description, properties, ...(required.length > 0 ? { required } : {}) };
}

/** `LbPoolSettings` -> `lb-pool-settings`: the file name of a kind in every layer. */

/** What a kind does beyond its table, in its own words: provider/kinds/<kind>.md, beside its descriptor. */
export function kindProse(type: Kind): string {
  return fs.readFileSync(path.join(__dirname, "../provider/kinds", `${toKebab(type)}.md`), "utf8").trim();
}

/**
 * An enum type: its values, each named as the SDKs spell it (`RoundRobin`: Go's
 * `cims.LbAlgorithmRoundRobin`, Python's `cims.LbAlgorithm.ROUND_ROBIN`), other spellings too.
 */
function enumTypeOf(t: Enum, doc: string): Json {
  if (t.kind === "integer")
    return { type: "number", description: doc, enum: t.enum.map((value) => ({ value, name: enumMemberName(String(value)) })) };
  const values = [
    ...t.enum.map((value) => ({ value, name: enumMemberName(value) })),
    ...Object.entries(t.aliases ?? {}).map(([value, same]) => ({
      value,
      name: enumMemberName(value),
      description: `The same as \`${same}\`.`,
    })),
  ];
  return { type: "string", description: doc, enum: values };
}

/** Every enum the fields of `fields` reach (nested objects' too), by name, described by the first field of it. */
function enumTypes(fields: Iterable<Pick<Field, "type" | "doc">>, into: Map<string, Json>): Map<string, Json> {
  const visit = (t: FieldType, doc: string): void => {
    if (isEnum(t) && !into.has(enumName(t))) into.set(enumName(t), enumTypeOf(t, doc));
    if (t.kind === "array") visit(t.items, doc);
    if (t.kind === "object") for (const f of Object.values(t.fields)) visit(f.type, f.doc);
  };
  for (const f of fields) visit(f.type, f.doc);
  return into;
}

function resourceOf(type: Kind): Json {
  const shape = shapeOf(kind(type).descriptor);
  const inputProperties: Record<string, Property> = {};
  // The contract's fields first, then the provider's own: the order Python's SDK takes its arguments in.
  for (const { name, field, change } of [...shape.inputs.filter((i) => !i.own), ...shape.inputs.filter((i) => i.own)]) {
    const p = propertyOf(field);
    inputProperties[name] =
      change === "replaces" ? { ...p, description: `${String(p.description)} Changing it replaces the resource.` } : p;
  }
  const requiredInputs = [
    ...shape.inputs.filter((i) => i.field.required && !i.own),
    ...shape.inputs.filter((i) => i.field.required && i.own),
  ];
  const properties: Json = { ...inputProperties };
  for (const o of shape.outputs) properties[o.name] ??= propertyOf(o);
  return {
    description: `${shape.contract.doc}\n\n${kindProse(type)}`,
    inputProperties,
    requiredInputs: requiredInputs.map((i) => i.name),
    properties,
    // What every state holds (shape.ts: `always`), so Go's SDK gives plain outputs, not pointers.
    required: shape.outputs.filter((o) => o.always).map((o) => o.name),
  };
}

/** A configuration key's description: its words, its default (or that it is required) and its environment variable. */
function configDescription(e: ConfigEntry): string {
  const given = e.required ? "Required" : e.default === undefined ? "" : `Default: ${String(e.default)}`;
  const fallback = e.env ? `${e.required ? "or" : "else"} the environment variable ${e.env}` : "";
  const said = [given, fallback].filter(Boolean).join(e.required ? ", " : "; ");
  return said ? `${e.words} ${said.charAt(0).toUpperCase()}${said.slice(1)}.` : e.words;
}

/** The provider's configuration (`cims:<key>`), as the dynamic face reads it: every key of config.ts's table. */
export const PROVIDER_CONFIG: Readonly<Record<string, Property>> = Object.fromEntries(
  CONFIG_KEYS.map((key) => {
    const e: ConfigEntry = CONFIG_TABLE[key];
    const shape = e.schema && "$ref" in e.schema ? e.schema : { type: e.type, ...e.schema };
    return [key, { ...shape, ...(e.secret ? { secret: true } : {}), description: configDescription(e) }];
  }),
);

/** The shape of the configuration's `ignoreTags` (config.ts), its one key of an object type of its own. */
const IGNORE_TAGS: Json = {
  type: "object",
  description: "Tags others own, which the provider never diffs, writes or removes.",
  properties: {
    keys: { type: "array", items: { type: "string" }, description: "Tag keys left to others." },
    keyPrefixes: {
      type: "array",
      items: { type: "string" },
      description: "Key prefixes: a tag whose key starts with one is left to others. An empty prefix is refused.",
    },
  },
};

/**
 * Where package.json says the project lives: `https://github.com/<owner>/<name>`, its homepage,
 * its Go SDK's import path, and the engine's spelling of its GitHub releases (`github://`).
 */
function repository(): { url: string; homepage: string; goImportBasePath: string; pluginDownloadURL: string } {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, "../package.json"), "utf8")) as {
    homepage: string;
    repository: { url: string };
  };
  const url = manifest.repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
  const { host, pathname } = new URL(url);
  return {
    url,
    homepage: manifest.homepage,
    goImportBasePath: `${host}${pathname}/sdk/go/cims`,
    pluginDownloadURL: `github://api.${host}${pathname}`,
  };
}

/**
 * The Python SDK's metadata beyond the schema's own: the `pulumi` SDK range it runs with
 * (docs/versions.md) and the oldest Python. The SDK carries the schema's version
 * (respectSchemaVersion), so a program asks for this plugin's version; without it the
 * generator writes 0.0.0 for a release step to replace.
 */
const PYTHON = {
  packageName: "pulumi_cims",
  respectSchemaVersion: true,
  requires: { pulumi: ">=3.231.0,<4.0.0" },
  pythonRequires: ">=3.9",
  pyproject: { enabled: true },
};

export function packageSchema(version: string): Json {
  const types: Json = {};
  const named = new Map<string, ObjectType>();
  const enums = new Map<string, Json>();
  for (const type of KIND_NAMES) {
    const shape = shapeOf(kind(type).descriptor);
    nestedTypes(shape.nested.values(), named);
    enumTypes([...shape.inputs.map((i) => i.field), ...shape.outputs], enums);
  }
  const all: Array<[string, Json]> = [...[...named].map(([name, t]): [string, Json] => [name, objectTypeOf(t)]), ...enums];
  const lookups = schemaFunctions();
  all.push(["IgnoreTags", IGNORE_TAGS]);
  for (const [name, t] of all.sort(([a], [b]) => a.localeCompare(b))) types[`cims:index:${name}`] = t;
  Object.assign(types, lookups.types);
  const repo = repository();
  return {
    name: "cims",
    displayName: "CIMS",
    version,
    description: `The Cloud Infrastructure Management Service (CIMS): ${KIND_NAMES.join(", ")}.`,
    keywords: ["pulumi", "cims", "category/cloud"],
    license: "Apache-2.0",
    homepage: repo.homepage,
    repository: repo.url,
    // Where release tarballs are published: GitHub releases of the repository, tag v<version>,
    // asset pulumi-resource-cims-v<version>-<os>-<arch>.tar.gz (npm run plugin:tarball's name).
    pluginDownloadURL: repo.pluginDownloadURL,
    config: { variables: PROVIDER_CONFIG },
    provider: { description: "The CIMS provider: where the API is, and its key.", inputProperties: PROVIDER_CONFIG },
    types,
    resources: Object.fromEntries(KIND_NAMES.map((type) => [`cims:index:${type}`, resourceOf(type)])),
    functions: lookups.functions,
    // Go's import path is the repository's (`go get` once it is published; docs/platform.md, "Go").
    language: { python: PYTHON, go: { importBasePath: repo.goImportBasePath } },
  };
}
