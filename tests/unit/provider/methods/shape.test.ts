// A kind's shape (provider/methods/shape.ts) is what every renderer reads: its inputs (the
// provider's own beside the contract's fields, each with its words and its type's rules) and its
// outputs. An output the shape declares is one the provider fills; an own input is checked by
// its type like any contract field, and its rule is in the kind's reference page.
import * as fs from "node:fs";
import * as path from "node:path";
import type { FieldType } from "../../../../api/contract";
import { recordName } from "../../../../api/contract";
import { toKebab, toSnake } from "../../../../api/names";
import { KIND_NAMES, kind } from "../../../../provider/kinds/registry";
import { shapeOf } from "../../../../provider/methods/shape";
import { toWire } from "../../../../api/wire";

const ROOT = path.resolve(__dirname, "../../../..");
type Json = Record<string, unknown>;

const FORMATS: Record<string, string> = {
  uuid4: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01",
  ip: "10.0.0.10",
  cidr: "10.0.0.0/24",
  urlPath: "/",
  expectedCodes: "200",
  dateTime: "2026-01-01T00:00:00Z",
};

/** A value of every type, as a program gives it: every field of an object, one item of a list. */
function sample(t: FieldType): unknown {
  switch (t.kind) {
    case "string":
      return t.enum?.[0] ?? (t.format ? FORMATS[t.format] : "x");
    case "integer":
      return t.enum?.[0] ?? (t.int64 ? "7" : Number(t.min) + 1);
    case "number":
      return 60;
    case "boolean":
      return true;
    case "tags":
      return { team: "platform" };
    case "array":
      return [sample(t.items)];
    case "object": {
      const out: Json = Object.fromEntries(Object.entries(t.fields).map(([name, f]) => [name, sample(f.type)]));
      if (t.members) out[t.members.names[0]] = sample(t.members.type);
      return out;
    }
  }
}

/** Every input a kind takes, and a record holding every field the contract says it has. */
function full(type: (typeof KIND_NAMES)[number]): { inputs: Json; record: Json } {
  const d = kind(type).descriptor;
  const inputs: Json = {};
  for (const i of shapeOf(d).inputs) inputs[i.name] = sample(i.field.type);
  const record: Json = { id: "1", project_id: 1, region_id: 1 };
  for (const [name, f] of Object.entries(d.contract.fields)) record[recordName(name, f)] = toWire(sample(f.type), f.type);
  for (const [wire, f] of Object.entries(d.contract.record)) record[wire] = toWire(sample(f.type), f.type);
  for (const [name, f] of Object.entries(d.own)) record[toSnake(name)] ??= toWire(sample(f.type), f.type);
  return { inputs, record };
}

test.each(KIND_NAMES)("%s: every output its shape declares is filled from a full record", (type) => {
  const { table } = kind(type);
  const { inputs, record } = full(type);
  const outputs = table.outputs(inputs, record, ["task-1"]);
  // `adopted` is the engine's to say (a create, an adoption, an import), beside the table's outputs: adopt-delete.test.ts.
  const declared = shapeOf(kind(type).descriptor)
    .outputs.map((o) => o.name)
    .filter((name) => name !== "adopted");
  expect(declared.filter((name) => outputs[name] === undefined)).toEqual([]);
});

test("the provider's own inputs are checked by their types, in the contract's words", () => {
  const subnet = { name: "app", cidr: "10.0.0.0/24", networkId: FORMATS.uuid4 };
  const failures = kind("Subnet").table.check(
    {},
    { ...subnet, projectId: 0, regionId: 1, importId: "x", timeouts: { create: -1, later: 1 } },
  ).failures;
  expect(failures).toEqual([
    { property: "projectId", reason: "projectId: must be at least 1 (a positive integer)" },
    { property: "timeouts.create", reason: "timeouts.create: must be a positive number of seconds" },
    { property: "timeouts.later", reason: expect.stringContaining("timeouts.later") },
    { property: "importId", reason: expect.stringMatching(/^importId: .*UUID/) },
  ]);
  const pool = kind("LbPoolSettings").table.check({}, { poolId: FORMATS.uuid4, membersOwnership: "all" }, () => ({
    projectId: 1,
    regionId: 1,
  }));
  expect(pool.failures).toEqual([{ property: "membersOwnership", reason: "membersOwnership: must be one of: declared, exclusive" }]);
});

test.each(KIND_NAMES)("%s: each own input's rule is in its reference page", (type) => {
  const page = fs.readFileSync(path.join(ROOT, `docs/resources/${toKebab(type)}.md`), "utf8");
  for (const i of shapeOf(kind(type).descriptor).inputs.filter((i) => i.own && !["object", "boolean"].includes(i.field.type.kind))) {
    const row = page.split("\n").find((line) => line.startsWith(`| \`${i.name}\` |`));
    const rule = row?.split(" | ")[5];
    expect({ input: i.name, rule: rule?.trim() || undefined }).toEqual({ input: i.name, rule: expect.any(String) });
  }
});
