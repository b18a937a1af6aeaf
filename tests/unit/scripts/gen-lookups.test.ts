// What `npm run gen` writes from the lookups (scripts/gen-lookups.ts): which of an answer's
// fields every record holds, as the schema, the TypeScript types and the pages say it, and
// each page's example.
import { lookup, LOOKUP_NAMES } from "../../../api/lookups";
import { ItemValue } from "../../../provider/kinds/program-model";
import { LOOKUP_EXAMPLES, lookupDoc, lookupsModule, schemaFunctions } from "../../../scripts/gen-lookups";

const outputsOf = (name: string) => schemaFunctions().functions[`cims:index:${name}`] as { outputs: { required?: string[] } };

test("a field the vendor's model requires is required in the schema and plain in TypeScript: getProject's clientId, which a QuotaThreshold takes", () => {
  expect(outputsOf("getProject").outputs.required).toEqual(["id", "clientId", "name"]);
  const module = lookupsModule("");
  expect(module).toMatch(/export interface GetProjectResult \{[^}]*\n {2}readonly clientId: number;\n/);
  expect(module).toMatch(/export interface GetProjectResult \{[^}]*\n {2}readonly description\?: string;\n/);
  expect(lookupDoc(lookup("getProject"))).toContain("`id`, `clientId` and `name` always are there");
});

test("a page names only the fields the schema requires as always there: a region's name is its displayName, not required", () => {
  expect(outputsOf("getRegion").outputs.required).toEqual(["id"]);
  expect(lookupDoc(lookup("getRegion"))).toContain("`id` always is there");
  expect(lookupDoc(lookup("getSubnet"))).toContain("`id` and `name` always are there");
});

test("every lookup's page shows an example, and a list's example reads a record of it, never the SDKs' records whole", () => {
  expect(Object.keys(LOOKUP_EXAMPLES).sort()).toEqual([...LOOKUP_NAMES].sort());
  for (const name of ["getSubnets", "getPoolMembers"] as const) {
    const outputs = Object.values(LOOKUP_EXAMPLES[name]!.outputs);
    expect(outputs.length).toBeGreaterThan(0);
    for (const o of outputs) expect(o).toBeInstanceOf(ItemValue);
  }
});
