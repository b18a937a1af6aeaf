// Region: the service's regions (the vendor SDK's regions.list and regions.get), read only.
// getRegion finds one in the list by id or display name.
import type { ReadOnlyContract } from "./types";

const MODEL = "gcore.types.cloud.region.Region";

const CAPABILITY =
  "A service the region offers that no resource of this provider uses; getRegion answers hasBaremetal, the one BaremetalImage needs.";
const INTERNAL = "The service's own wiring of the region (identity, metrics, physical network), nothing a program refers to.";

export const Region = {
  name: "Region",
  doc: "A region of the service: where a scoped record lives, with its project.",
  paths: {
    /** GET (the vendor SDK): every region, `limit`/`offset` paging. */
    collection: "/cloud/v1/regions",
    /** GET (the vendor SDK). */
    item: "/cloud/v1/regions/{region_id}",
  },
  operations: {
    list: { method: "GET", path: "collection", response: MODEL },
    get: { method: "GET", path: "item", response: MODEL },
  },
  vendorLeftOut: {
    available_volume_types: "The volume types the region offers; no resource of this provider creates a volume.",
    coordinates: "Where the region is on a map, which no program's record depends on.",
    country: "The region's country, which no lookup filters on: getRegion finds a region by id or display name.",
    created_at: "When the service added the region, which no program's record depends on.",
    created_on: "When the service added the region (the older spelling of created_at), which no program's record depends on.",
    endpoint_type: "How the service's own endpoints in the region are reached; this provider calls the account's API URL.",
    file_share_types: "The file share types the region offers; no resource of this provider creates a file share.",
    has_ai: CAPABILITY,
    has_ai_gpu: CAPABILITY,
    has_basic_vm: CAPABILITY,
    has_dbaas: CAPABILITY,
    has_ddos: CAPABILITY,
    has_k8s: CAPABILITY,
    has_kvm: CAPABILITY,
    has_sfs: CAPABILITY,
    ddos_endpoint_id: CAPABILITY,
    keystone_id: INTERNAL,
    keystone_name: INTERNAL,
    metrics_database_id: INTERNAL,
    vlan_physical_network: INTERNAL,
    task_id: "The service's last task on the region, bookkeeping that no program refers to.",
  },
} as const satisfies ReadOnlyContract;
