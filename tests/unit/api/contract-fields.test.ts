// A field lives in one place: its row in api/contract. From the tables, for every resource:
// - each optional field says what leaving it out means (a default, the service's choice, or
//   "not managed" for a settings resource): one that says nothing would be stored as null and
//   diff on every preview;
// - the emulator takes every field an update may set (PATCH, or the quota's PUT) and holds it
//   afterwards, read back by GET: a field added to a table needs no emulator edit.
import {
  applyUpdate,
  type BodyContract,
  type FieldType,
  fieldsWithoutOmissionRule,
  idParam,
  operation,
  recordFields,
  recordName,
  updatable,
} from "../../../api/contract";
import { BaremetalImage } from "../../../api/contract/baremetal-image";
import { Subnet } from "../../../api/contract/subnet";
import { type Kind, KIND_NAMES, kind } from "../../../provider/kinds/registry";
import { KITS } from "../../kits";
import { SEEDED_PARAMS } from "../../support/cims";
import { canonicalValue } from "../../../api/canonical";
import { valueSchema } from "../../../api/schema";
import { toSnake } from "../../../api/names";
import { parseJson, stringifyJson } from "../../../provider/client";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";

const CONTRACTS: Array<[Kind, BodyContract]> = KIND_NAMES.map((k) => [k, kind(k).descriptor.contract]);

describe("every optional field states what omitting it means", () => {
  test.each(CONTRACTS)("%s", (_name, contract) => {
    expect(fieldsWithoutOmissionRule(contract)).toEqual([]);
  });
  test("a field added with no rule is caught", () => {
    const grown: BodyContract = {
      ...Subnet,
      fields: { ...Subnet.fields, mtu: { type: { kind: "integer", min: 68, max: 9000 }, set: "update", doc: "MTU." } },
    };
    expect(fieldsWithoutOmissionRule(grown)).toEqual(["mtu"]);
  });
});

// A word stands for null only where null is allowed, and is no value of the field's own: a
// program that gives it means null, never an address or a name that happens to be spelled so.
test.each(CONTRACTS)("%s: each null word is a nullable field's, and not a value its type takes", (_name, contract) => {
  for (const [name, f] of Object.entries(contract.fields)) {
    if (f.nullWord === undefined) continue;
    expect({ name, nullable: f.nullable }).toEqual({ name, nullable: true });
    expect({ name, valid: valueSchema(f.type, { face: "program" }).safeParse(f.nullWord).success }).toEqual({ name, valid: false });
  }
});

describe("records and updates follow the table", () => {
  test("a new record holds every field the record carries, defaulted; create-only instructions are not kept", () => {
    const record = recordFields(Subnet, {
      name: "a",
      cidr: "10.0.0.0/24",
      network_id: "n",
      connect_to_network_router: false,
      dns_nameservers: null,
    });
    expect(record).toMatchObject({ name: "a", enable_dhcp: true, dns_nameservers: [], host_routes: [], tags: [] });
    expect(record).not.toHaveProperty("connect_to_network_router");
    expect(Object.keys(recordFields(BaremetalImage, { name: "i", volume_id: "v" }))).toContain("tags_v2");
  });
  test("an update sets only what an update may set; a null list is empty", () => {
    const updated = applyUpdate(
      Subnet,
      { cidr: "10.0.0.0/24", dns_nameservers: ["8.8.8.8"] },
      { cidr: "10.9.0.0/24", dns_nameservers: null },
    );
    expect(updated).toEqual({ cidr: "10.0.0.0/24", dns_nameservers: [] });
  });
});

// ---------------------------------------------------------------------------------------
// The emulator, over HTTP: every updatable field of every resource, set and read back.
// ---------------------------------------------------------------------------------------

const KEY = "contract-fields-key-91a2";
const SECRET = "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b";

/** A wire value of this type that differs from `held`. */
function sample(type: FieldType, held: unknown): unknown {
  switch (type.kind) {
    case "string":
      if (type.enum) return [...type.enum].reverse().find((v) => v !== held && type.recordSpelling?.[v] !== held);
      if (type.format === "uuid4") return SECRET;
      if (type.format === "ip") return "1.1.1.1";
      return "updated";
    case "integer": {
      const min = Number(type.min);
      const value = type.enum ? type.enum.find((v) => v !== held) : held === min + 1 ? min + 2 : min + 1;
      return type.int64 ? BigInt(value!) : value;
    }
    case "boolean":
      return held !== true;
    case "tags":
      return { set: "by-test" };
    case "array":
      return type.items.kind === "string" && type.items.format === "ip" ? ["1.1.1.1", "8.8.4.4"] : undefined;
    default:
      return undefined;
  }
}

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startEmulator({ apiKey: KEY, seed: "examples/emulator-seed.json", taskDurationMs: 0 });
});
afterEach(async () => emu.close());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `apikey ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : stringifyJson(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (parseJson(text) as Record<string, unknown>) : {} };
}

/** A path template with its parameters filled. */
function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_all, name: string) => {
    if (params[name] === undefined)
      throw new Error(`no value for {${name}} of ${template}: a seeded record's id belongs in SEEDED_PARAMS (tests/support/cims.ts)`);
    return params[name];
  });
}

/** Creates a record of a kind by its contract's create (through its task); returns the new record's id. */
async function created(name: Kind, body: Record<string, unknown>): Promise<string> {
  const create = operation(kind(name).descriptor.contract, "create")!;
  const res = await call(create.method, fill(create.template, SEEDED_PARAMS), body);
  expect(res.status).toBe(200);
  // A synchronous create answers the record itself.
  if (!create.task) return String(res.body.id);
  const [task] = res.body.tasks as string[];
  const done = (await call("GET", `/cloud/v1/tasks/${task}`)).body as { created_resources: Record<string, string[]> };
  return done.created_resources[create.created!][0];
}

/** Each resource's update, at its contract's method and path, of a record made by its create or the seed's. */
async function target(name: Kind): Promise<{ path: string; method: string; base?: Record<string, unknown> }> {
  const contract = kind(name).descriptor.contract;
  const update = operation(contract, "update");
  if (!update) throw new Error(`${name}'s contract has no update`);
  const make = KITS[name].create;
  if (operation(contract, "create") && !make) throw new Error(`${name} creates its records: its kit's create gives its body (tests/kits)`);
  const params = make ? { ...SEEDED_PARAMS, [idParam(contract)]: await created(name, await make(created)) } : SEEDED_PARAMS;
  return { method: update.method, path: fill(update.template, params), base: KITS[name].base };
}

const RESOURCES = KIND_NAMES.map((name) => ({ name, contract: kind(name).descriptor.contract, target: () => target(name) }));

const cases = RESOURCES.flatMap((r) => updatable(r.contract).map((field) => [r.name, field, r] as const));

test.each(cases)("%s.%s: the update sets it, and a GET reads it back", async (_name, field, resource) => {
  const wire = toSnake(field);
  const { path, method, base } = await resource.target();
  const spec = resource.contract.fields[field];
  const before = (await call("GET", path)).body;
  const value = KITS[resource.name].values?.[wire] ?? sample(spec.type, before[recordName(field, spec)]);
  expect(value).toBeDefined(); // a field of a type `sample` has no value for needs one in its kit's values
  const res = await call(method, path, { ...base, [wire]: value });
  expect(res.status).toBe(200);
  for (const task of (res.body.tasks ?? []) as string[]) await call("GET", `/cloud/v1/tasks/${task}`);
  const record = (await call("GET", path)).body;
  const held = record[recordName(field, spec)];
  const plain = (v: unknown) => JSON.parse(stringifyJson(v));
  if (spec.type.kind === "tags") {
    expect(held).toEqual(expect.arrayContaining([{ key: "set", value: "by-test", read_only: false }]));
  } else if (spec.type.kind === "object" || (spec.type.kind === "array" && spec.type.items.kind === "object")) {
    // The service adds its own fields (ids, statuses, defaults): what was sent is held.
    expect(plain(held)).toMatchObject(plain(value) as object);
  } else {
    const canon = (v: unknown) => plain(canonicalValue(v, spec.type, toSnake, "record"));
    expect(canon(held)).toEqual(canon(value));
    expect(canon(before[recordName(field, spec)])).not.toEqual(canon(value)); // it did change
  }
});
