// Every field the vendor SDK takes or returns for a kind is one of ours or is left out on
// purpose: each request type's keys (and the keys of the objects inside them) are inputs, each
// field of the record's model an output, else the contract's `vendorLeftOut` says why not. A
// read-only record's (a project, a region, a network, a volume) are what the lookups that read it
// answer or filter on, else left out. A field the vendor adds in a new SDK, or a mapping removed
// from a contract, fails here.
import {
  type CallContract,
  type FieldType,
  type ReadOnlyContract,
  operationsOf,
  requestsOf,
  recordName,
  responseModel,
} from "../../api/contract";
import { READ_ONLY } from "../../api/contract/read-only";
import { LOOKUPS } from "../../api/lookups";
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
const pathParams = (c: CallContract) => Object.values(c.paths).flatMap((p) => [...p.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]));

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

/** What a contract's record takes and shows of the vendor's fields, by wire name. */
interface Mapping {
  readonly contract: CallContract;
  readonly takes: Set<string>;
  readonly shows: Set<string>;
}

/** The vendor SDK's types a contract names: its calls' request types and its record's model. */
function typesOf(contract: CallContract): { requests: string[]; model: string | undefined } {
  return { requests: requestsOf(contract).map((r) => r.sdk), model: responseModel(contract) };
}

function unmappedIn({ contract, takes, shows }: Mapping, vendor: Readonly<Record<string, readonly string[]>>): string[] {
  const left = contract.vendorLeftOut ?? {};
  const { requests, model } = typesOf(contract);
  const missing = (sdk: string, ours: Set<string>) =>
    (vendor[sdk] ?? []).filter((k) => !ours.has(k) && !(k in left)).map((k) => `${sdk}: ${k}`);
  return [...new Set([...requests.flatMap((sdk) => missing(sdk, takes)), ...(model ? missing(model, shows) : [])])];
}

function staleIn({ contract, takes, shows }: Mapping, vendor: Readonly<Record<string, readonly string[]>>): string[] {
  const { requests, model } = typesOf(contract);
  const all = new Set([...requests.flatMap((sdk) => vendor[sdk] ?? []), ...(model ? (vendor[model] ?? []) : [])]);
  return Object.keys(contract.vendorLeftOut ?? {}).filter((k) => !all.has(k) || takes.has(k) || shows.has(k));
}

/** The vendor's fields of a kind's models that are neither mapped nor left out with a reason. */
export const unmapped = (d: Descriptor, vendor: Readonly<Record<string, readonly string[]>>): string[] =>
  unmappedIn({ contract: d.contract, ...mapped(d) }, vendor);

/** Entries of `vendorLeftOut` that no model of the kind has, or that the kind maps after all. */
export const staleLeftOut = (d: Descriptor, vendor: Readonly<Record<string, readonly string[]>>): string[] =>
  staleIn({ contract: d.contract, ...mapped(d) }, vendor);

/**
 * What a read-only record shows: its id, its path's parameters, and each field a lookup that
 * reads its list (at one of its paths) answers or filters on. It takes nothing.
 */
export function readOnlyMapping(contract: ReadOnlyContract): Mapping {
  const paths = Object.values(contract.paths);
  const reading = LOOKUPS.filter((l) => paths.includes(l.path));
  const shows = new Set([
    "id",
    ...pathParams(contract),
    ...reading.flatMap((l) => [...l.outputs.map((o) => o.wire), ...l.filters.map((f) => f.wire)]),
  ]);
  return { contract, takes: new Set(), shows };
}

const DESCRIPTORS = KIND_NAMES.map((k) => [k, kind(k).descriptor as Descriptor] as const);

const READ_ONLY_CONTRACTS: ReadonlyArray<readonly [string, ReadOnlyContract]> = Object.entries(READ_ONLY);

let vendor: Record<string, string[]>;
beforeAll(async () => {
  const contracts = [...DESCRIPTORS.map(([, d]) => d.contract), ...READ_ONLY_CONTRACTS.map(([, c]) => c)];
  const types = [...new Set(contracts.flatMap((c) => [...typesOf(c).requests, typesOf(c).model ?? []].flat()))];
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

test.each(READ_ONLY_CONTRACTS)(
  "%s: every field of the vendor's model of the read-only record is a lookup's, or left out with a reason",
  (_name, contract) => {
    const mapping = readOnlyMapping(contract);
    expect(LOOKUPS.filter((l) => Object.values(contract.paths).includes(l.path)).length).toBeGreaterThan(0);
    expect(new Set(operationsOf(contract).map((op) => op.response))).toEqual(new Set([responseModel(contract)]));
    expect(unmappedIn(mapping, vendor)).toEqual([]);
    expect(staleIn(mapping, vendor)).toEqual([]);
    for (const reason of Object.values(contract.vendorLeftOut ?? {})) expect(reason.length).toBeGreaterThan(20);
  },
);

test("a vendor field of a read-only record that no lookup answers and no reason leaves out is caught", () => {
  const { Network } = READ_ONLY;
  const { tags: _gone, ...left } = Network.vendorLeftOut;
  expect(unmappedIn(readOnlyMapping(Network), vendor)).toEqual([]);
  expect(unmappedIn(readOnlyMapping({ ...Network, vendorLeftOut: left }), vendor)).toEqual(["gcore.types.cloud.network.Network: tags"]);
});

test("a mapping removed from a contract is caught", () => {
  const subnet = kind("Subnet").descriptor as Descriptor;
  const { available_ips: _gone, ...record } = Subnet.record;
  const shrunk: Descriptor = { ...subnet, contract: { ...subnet.contract, record } };
  expect(unmapped(subnet, vendor)).toEqual([]);
  expect(unmapped(shrunk, vendor)).toEqual(["gcore.types.cloud.subnet.Subnet: available_ips"]);
});
