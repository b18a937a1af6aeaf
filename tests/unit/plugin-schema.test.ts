// The plugin's schema is generated from the contract and the kinds' descriptors; schema.json
// is that schema, committed for readers and SDK generators (`npm run schema` writes it).
import * as fs from "node:fs";
import * as path from "node:path";
import { packageSchema } from "../../provider/plugin/schema";

const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../package.json"), "utf8")) as { version: string };

test("schema.json is the schema the plugin serves (run `npm run schema` after changing a contract)", () => {
  const committed = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../schema.json"), "utf8"));
  expect(committed).toEqual(packageSchema(version));
});

test("every contract field is an input of its resource, nested objects are named types, int64 numbers are strings", () => {
  const schema = packageSchema(version) as {
    resources: Record<string, { inputProperties: Record<string, { type?: string; $ref?: string }>; requiredInputs: string[] }>;
    types: Record<string, { properties: Record<string, { type?: string; $ref?: string }> }>;
  };
  expect(schema.resources["cims:index:Subnet"].requiredInputs.sort()).toEqual(["cidr", "name", "networkId"]);
  expect(schema.resources["cims:index:LbPoolSettings"].requiredInputs).toEqual(["poolId"]);
  expect(schema.resources["cims:index:Subnet"].inputProperties.hostRoutes).toEqual({
    type: "array",
    items: { $ref: "#/types/cims:index:HostRoute" },
  });
  expect(schema.types["cims:index:QuotaEntry"].properties.limit.type).toBe("string");
  expect(schema.types["cims:index:GlobalQuotas"].properties.keypairCountLimit).toEqual({ $ref: "#/types/cims:index:QuotaEntry" });
});
