// What `npm run gen` writes from the lookups (scripts/gen-lookups.ts): which of an answer's
// fields every record holds, as the schema, the TypeScript types and the pages say it.
import { lookup } from "../../../api/lookups";
import { lookupDoc, lookupsModule, schemaFunctions } from "../../../scripts/gen-lookups";

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
