// GetMapping("terraform"): the vendor's Terraform types of both generations, each as the kind
// whose contract names it, in pulumi-terraform-bridge's marshalled form that Pulumi's converters read.
import { TERRAFORM_PROVIDER, terraformMapping } from "../../../../provider/plugin/mapping";
import { KIND_NAMES, kind } from "../../../../provider/kinds/registry";

type Mapping = {
  name: string;
  version: string;
  provider: { resources: Record<string, Record<string, { type: number; required?: boolean; maxItems?: number }>> };
  resources: Record<string, { tok: string; fields: Record<string, { name?: string; maxItemsOne?: boolean }>; idFields: string[] }>;
};
const mapping = terraformMapping("1.2.3") as Mapping;

test("every Terraform type a contract names, both generations, maps to its kind's token; nothing else", () => {
  const named = KIND_NAMES.flatMap((k) => (kind(k).descriptor.contract.terraform ?? []).map((t) => [t.type, `cims:index:${k}`]));
  expect(named.length).toBeGreaterThan(0);
  expect(Object.fromEntries(Object.entries(mapping.resources).map(([t, r]) => [t, r.tok]))).toEqual(Object.fromEntries(named));
  expect(mapping).toMatchObject({ name: TERRAFORM_PROVIDER, version: "1.2.3" });
  expect(mapping.resources.gcore_subnet.tok).toBe("cims:index:Subnet");
  expect(mapping.resources.gcore_cloud_network_subnet.tok).toBe("cims:index:Subnet");
  expect(mapping.resources.gcore_lbpool.tok).toBe("cims:index:LbPoolSettings");
  expect(mapping.resources.gcore_cloud_load_balancer_pool.tok).toBe("cims:index:LbPoolSettings");
});

test("attributes are the API's names: the first generation's tags are metadata_map, renamed to tags; the second's are tags", () => {
  const v1 = mapping.provider.resources.gcore_subnet;
  const v2 = mapping.provider.resources.gcore_cloud_network_subnet;
  expect(v1).toHaveProperty("metadata_map");
  expect(v1).not.toHaveProperty("tags");
  expect(mapping.resources.gcore_subnet.fields.metadata_map).toEqual({ name: "tags" });
  expect(v2).toHaveProperty("tags");
  expect(mapping.resources.gcore_cloud_network_subnet.fields).not.toHaveProperty("tags");
  expect(v2).toMatchObject({ cidr: { type: 4, required: true }, network_id: { type: 4, required: true }, project_id: { type: 2 } });
  // No option of the provider's own is a Terraform attribute.
  expect(Object.keys(v2)).not.toEqual(expect.arrayContaining(["import_id"]));
  expect(v2).not.toHaveProperty("timeouts");
});

test("a nested object is a one-item block, said so for the converter; a pool's members a list of blocks", () => {
  const pool = mapping.provider.resources.gcore_cloud_load_balancer_pool;
  expect(pool.pool_id).toMatchObject({ type: 4, required: true });
  expect(pool.healthmonitor).toMatchObject({ type: 5, maxItems: 1 });
  expect(mapping.resources.gcore_cloud_load_balancer_pool.fields.healthmonitor).toEqual({ maxItemsOne: true });
  expect(pool.members).toMatchObject({
    type: 5,
    element: { resource: { address: { type: 4, required: true }, instance_id: { type: 4 } } },
  });
  expect(pool).not.toHaveProperty("members_ownership");
});
