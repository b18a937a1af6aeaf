// docs/features.md's table: a row per kind of the registry with its contract's Terraform names,
// and a row per function schema.json declares (the lookups) with the vendor's data sources, so neither
// needs an edit of the page.
import { featuresTable } from "../../../scripts/gen-features";
import { KIND_NAMES } from "../../../provider/kinds/registry";

test("a row per kind, with each generation's Terraform type and what each tool lacks", () => {
  const rows = featuresTable({}).trim().split("\n").slice(2);
  expect(rows.map((r) => /\[`(\w+)`\]/.exec(r)?.[1])).toEqual([...KIND_NAMES]);
  const subnet = rows.find((r) => r.includes("[`Subnet`]"))!;
  expect(subnet).toContain("| `gcore_subnet` | `gcore_cloud_network_subnet` |");
  const image = rows.find((r) => r.includes("[`BaremetalImage`]"))!;
  expect(image).toMatch(/\| none \| `gcore_cloud_instance_image` \| none \| Terraform v1 and the bridged package: no type \|$/);
  expect(rows.find((r) => r.includes("[`LbPoolSettings`]"))).toContain("pulumi-cims makes no such record");
});

test("each function of the schema is a row, by name, after the kinds", () => {
  const rows = featuresTable({ functions: { "cims:index:getSubnet": {}, "cims:index:getPool": {} } })
    .trim()
    .split("\n");
  expect(rows.slice(-2).map((r) => r.split(" | ")[0])).toEqual([
    "| [`getPool`](functions/get-pool.md) (lookup)",
    "| [`getSubnet`](functions/get-subnet.md) (lookup)",
  ]);
});

test("a lookup's row names the vendor's data source of each generation, and says where one has none", () => {
  const rows = featuresTable({ functions: { "cims:index:getSubnets": {}, "cims:index:getSubnet": {} } })
    .trim()
    .split("\n");
  const row = (name: string) => rows.find((r) => r.includes(`[\`${name}\`]`))!;
  expect(row("getSubnet")).toContain(
    "| `gcore_subnet` | `gcore_cloud_network_subnet` | v1's data source, bridged | none of them lacks it |",
  );
  expect(row("getSubnets")).toMatch(
    /\| none \| `gcore_cloud_network_subnets` \| none \| Terraform v1 and the bridged package: no data source \|$/,
  );
});
