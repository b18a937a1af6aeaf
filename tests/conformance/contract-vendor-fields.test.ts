// Every field the vendor SDK takes or returns for a kind is one of ours or is left out on
// purpose: each request type's keys (and the keys of the objects inside them) are inputs, each
// field of the record's model an output, else the contract's `vendorLeftOut` says why not. A
// field the vendor adds in a new SDK, or a mapping removed from a contract, fails here.
import { type Contract, type FieldType, requestsOf, recordName, responseModel } from "../../api/contract";
import { toSnake } from "../../api/names";
import { Subnet } from "../../api/contract/subnet";
import { shapeOf } from "../../provider/methods/shape";
import type { Descriptor } from "../../provider/methods/descriptor";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";
import { runVendorScript } from "../support/vendor-sdk";

jest.setTimeout(120_000);

/** `field` and, for an object (or a list of objects), `field.inner` for each of its fields and members, deeply. */
function wireNames(name: string, type: FieldType): string[] {
  const inner = type.kind === "array" ? type.items : type;
  if (inner.kind !== "object") return [name];
  const members = inner.members ? inner.members.names.flatMap((m) => wireNames(`${name}.${toSnake(m)}`, inner.members!.type)) : [];
  return [name, ...Object.entries(inner.fields).flatMap(([n, f]) => wireNames(`${name}.${toSnake(n)}`, f.type)), ...members];
}

/** The path parameters of every path of the contract: the SDK's types declare some of them. */
const pathParams = (c: Contract) => Object.values(c.paths).flatMap((p) => [...p.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]));

/** The vendor's wire names a kind takes (its inputs, deeply) and shows (its outputs, and its id). */
export function mapped(d: Descriptor): { takes: Set<string>; shows: Set<string> } {
  const shape = shapeOf(d);
  const takes = new Set([...shape.inputs.flatMap((i) => wireNames(toSnake(i.name), i.field.type)), ...pathParams(d.contract)]);
  const shows = new Set([
    "id",
    ...shape.outputs.map((o) => toSnake(o.name)),
    ...Object.entries(d.contract.fields).map(([n, f]) => recordName(n, f)),
    ...pathParams(d.contract),
  ]);
  return { takes, shows };
}

/** The vendor's fields of a kind's models that are neither mapped nor left out with a reason. */
export function unmapped(d: Descriptor, vendor: Readonly<Record<string, readonly string[]>>): string[] {
  const { takes, shows } = mapped(d);
  const left = d.contract.vendorLeftOut ?? {};
  const requests = requestsOf(d.contract).map((r) => r.sdk);
  const model = responseModel(d.contract);
  const missing = (sdk: string, ours: Set<string>) =>
    (vendor[sdk] ?? []).filter((k) => !ours.has(k) && !(k in left)).map((k) => `${sdk}: ${k}`);
  return [...new Set([...requests.flatMap((sdk) => missing(sdk, takes)), ...(model ? missing(model, shows) : [])])];
}

/** Entries of `vendorLeftOut` that no model of the kind has, or that the kind maps after all. */
export function staleLeftOut(d: Descriptor, vendor: Readonly<Record<string, readonly string[]>>): string[] {
  const { takes, shows } = mapped(d);
  const model = responseModel(d.contract);
  const all = new Set([...requestsOf(d.contract).flatMap((r) => vendor[r.sdk] ?? []), ...(model ? (vendor[model] ?? []) : [])]);
  return Object.keys(d.contract.vendorLeftOut ?? {}).filter((k) => !all.has(k) || takes.has(k) || shows.has(k));
}

const DESCRIPTORS = KIND_NAMES.map((k) => [k, kind(k).descriptor as Descriptor] as const);

let vendor: Record<string, string[]>;
beforeAll(async () => {
  const types = [
    ...new Set(DESCRIPTORS.flatMap(([, d]) => [...requestsOf(d.contract).map((r) => r.sdk), responseModel(d.contract) ?? []].flat())),
  ];
  const { code, stdout, stderr } = await runVendorScript("model_fields.py", [JSON.stringify(types)]);
  expect(stderr).not.toMatch(/Traceback/);
  expect(code).toBe(0);
  vendor = JSON.parse(stdout) as Record<string, string[]>;
});

test.each(DESCRIPTORS)("%s: every field of the vendor's request types and record model is mapped or left out with a reason", (_k, d) => {
  expect(unmapped(d, vendor)).toEqual([]);
  expect(staleLeftOut(d, vendor)).toEqual([]);
  for (const reason of Object.values(d.contract.vendorLeftOut ?? {})) expect(reason.length).toBeGreaterThan(20);
});

test("a mapping removed from a contract is caught", () => {
  const subnet = kind("Subnet").descriptor as Descriptor;
  const { available_ips: _gone, ...record } = Subnet.record;
  const shrunk: Descriptor = { ...subnet, contract: { ...subnet.contract, record } };
  expect(unmapped(subnet, vendor)).toEqual([]);
  expect(unmapped(shrunk, vendor)).toEqual(["gcore.types.cloud.subnet.Subnet: available_ips"]);
});
