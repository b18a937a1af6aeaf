// A field the contract says every record carries (`inEveryRecord`) is one the vendor SDK's
// response model requires and never holds as None: schema.json marks its output required, and
// Go's SDK reads it as a plain value, so it must never be missing.
import { responseModel } from "../../api/contract";
import { READ_ONLY } from "../../api/contract/read-only";
import { toSnake } from "../../api/names";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";
import { runVendorScript } from "../support/vendor-sdk";

jest.setTimeout(60_000);

/** Each kind's record, as the vendor SDK's response model types it (its contract's get). */
const RESPONSE_MODELS: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  KIND_NAMES.map((type) => [type, responseModel(kind(type).descriptor.contract)]),
);

/** `[model, wire name]` of every field a kind's contract says every record carries. */
function claimed(): Array<[string, string]> {
  return KIND_NAMES.flatMap((type) => {
    const { fields, record } = kind(type).descriptor.contract;
    const wire = [
      ...Object.entries(fields)
        .filter(([, f]) => f.inEveryRecord)
        .map(([name, f]) => f.recordName ?? toSnake(name)),
      ...Object.entries(record)
        .filter(([, f]) => f.inEveryRecord)
        .map(([name]) => name),
    ];
    return wire.map((name): [string, string] => [RESPONSE_MODELS[type] ?? "", name]);
  });
}

test("every kind's contract and every read-only record's names the vendor SDK's response model of its record", () => {
  expect(Object.entries(RESPONSE_MODELS).filter(([, model]) => !model?.startsWith("gcore.types."))).toEqual([]);
  const readOnly = Object.values(READ_ONLY).map((c) => [c.name, responseModel(c)] as const);
  expect(readOnly.filter(([, model]) => !model?.startsWith("gcore.types."))).toEqual([]);
});

test("every field a contract says every record carries, the vendor SDK's response model requires, never None", async () => {
  const pairs = claimed();
  expect(pairs.length).toBeGreaterThan(0);
  const { code, stdout, stderr } = await runVendorScript("response_fields.py", [JSON.stringify(pairs)]);
  expect(stderr).not.toMatch(/Traceback/);
  expect(code).toBe(0);
  const required = JSON.parse(stdout) as Record<string, boolean>;
  expect(Object.entries(required).filter(([, always]) => !always)).toEqual([]);
  // Two kinds of one record (a policy and its state) name the same fields of the same model once.
  expect(Object.keys(required).sort()).toEqual([...new Set(pairs.map(([model, field]) => `${model}.${field}`))].sort());
});
