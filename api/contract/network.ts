// Network: a scope's networks (the vendor SDK's networks.list and networks.get), read only.
// A Subnet names one; getNetwork finds one in the list by id or name.
import type { ReadOnlyContract } from "./types";

const MODEL = "gcore.types.cloud.network.Network";

export const Network = {
  name: "Network",
  doc: "A network of a project and region, which a Subnet belongs to. No stack of this provider creates one.",
  paths: {
    /** GET (the vendor SDK): a scope's networks, `limit`/`offset` paging. */
    collection: "/cloud/v1/networks/{project_id}/{region_id}",
    /** GET (the vendor SDK). */
    item: "/cloud/v1/networks/{project_id}/{region_id}/{network_id}",
  },
  operations: {
    list: { method: "GET", path: "collection", response: MODEL },
    get: { method: "GET", path: "item", response: MODEL },
  },
  vendorLeftOut: {
    creator_task_id: "The task that made the network, someone else's: no stack of this provider creates a network.",
    port_security_enabled: "Whether the network's ports filter traffic, a setting of servers' ports, which no resource here has.",
    segmentation_id: "The network's VLAN or VXLAN id inside the service, nothing a program refers to.",
    tags: "The network's tags, which no lookup filters on: getNetwork finds a network by id or name.",
    task_id: "The service's last task on the network, bookkeeping that changes with others' calls.",
    updated_at: "When the network last changed, which changes with others' calls and no program refers to.",
  },
} as const satisfies ReadOnlyContract;
