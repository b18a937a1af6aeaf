// Records as the service returns them: the fields its models require (the vendor's official
// SDK, gcore 0.59.0, validates answers strictly against them), filled in where a seed, a
// request or an older state file left them out: the pieces several collections share, and the
// API's own projects and regions. Each resource's collection (../collections/) completes its
// records with these; seeds and state files are completed once when loaded (./store.ts), so
// no answer misses a field.
//
// Where each value comes from (docs/emulator.md, "Records as the service returns them"):
// - `region`: the region's name, from the seed's `regions` (else `Region <id>`);
// - images: `tags_v2` (the service's field for an image's tags; requests send `tags`),
//   `os_distro`/`os_version` from the source volume's `volume_image_metadata`, `min_ram` 0,
//   `hw_machine_type` in the records' spelling (`i440` for the spec's `pc`);
// - pools, members, health monitors: `admin_state_up` true, a member not `backup`, statuses
//   ACTIVE / NO_MONITOR or ONLINE, a health monitor's id, `max_retries_down` 3 and, for HTTP
//   checks, GET `/` expecting 200 over HTTP/1.0, as the service fills them;
// - lifecycle policies: `volumes` (empty unless asked for with need_volumes=true);
// - projects: client 1, `Project <id>`, not the default, ACTIVE, created when the seed's
//   records were (a seed that lists none gets one for each project_id its records name);
// - regions: the seed's `name` as `display_name`, a core region in EMEA, ACTIVE.
import { randomUUID } from "node:crypto";
import { type ApiRecord, isRecord } from "../../api/guards";

/** A health monitor as the service keeps it: its id, status and the defaults it fills. */
export function completeHealthmonitor(monitor: ApiRecord, previous?: ApiRecord | null): ApiRecord {
  const http = String(monitor.type).startsWith("HTTP");
  return {
    id: previous?.id ?? randomUUID(),
    admin_state_up: true,
    max_retries_down: 3,
    ...(http ? { http_method: "GET", url_path: "/", expected_codes: "200", http_version: "1.0", domain_name: null } : {}),
    ...monitor,
    operating_status: "ONLINE",
    provisioning_status: "ACTIVE",
  };
}

/** A pool member as the service keeps it. */
export function completeMember(member: ApiRecord): ApiRecord {
  return {
    id: randomUUID(),
    weight: 1,
    subnet_id: null,
    admin_state_up: true,
    backup: false,
    monitor_address: null,
    monitor_port: null,
    operating_status: "NO_MONITOR",
    provisioning_status: "ACTIVE",
    ...member,
  };
}

/** When seeded records say they were made, for those that carry no time of their own. */
const SEEDED_AT = "2026-05-01T08:00:00";

/** A region as the service describes it (the seed names it; the rest is a plain core region). */
export function completeRegion(region: ApiRecord): ApiRecord {
  const name = typeof region.name === "string" ? region.name : `Region ${String(region.id)}`;
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return {
    access_level: "core",
    available_volume_types: null,
    coordinates: null,
    country: "",
    created_at: SEEDED_AT,
    created_on: SEEDED_AT,
    display_name: name,
    endpoint_type: "public",
    external_network_id: null,
    file_share_types: null,
    has_ai: false,
    has_ai_gpu: false,
    has_baremetal: true,
    has_basic_vm: true,
    has_dbaas: false,
    has_ddos: false,
    has_k8s: false,
    has_kvm: true,
    has_sfs: false,
    keystone_id: region.id,
    keystone_name: slug,
    metrics_database_id: null,
    slug,
    state: "ACTIVE",
    task_id: null,
    vlan_physical_network: "physnet1",
    zone: "EMEA",
    ddos_endpoint_id: null,
    ...region,
  };
}

/** A project as the service describes it (the seed gives its id, perhaps its name). */
export function completeProject(project: ApiRecord): ApiRecord {
  return {
    client_id: 1,
    name: `Project ${String(project.id)}`,
    description: null,
    is_default: false,
    state: "ACTIVE",
    created_at: SEEDED_AT,
    deleted_at: null,
    task_id: null,
    ...project,
  };
}

/** The image a volume's data makes: what its image metadata says of the operating system. */
export function osOfVolume(volume: ApiRecord | undefined, osType: unknown): { os_distro: string; os_version: string } {
  const meta = isRecord(volume?.volume_image_metadata) ? volume.volume_image_metadata : {};
  return { os_distro: String(meta.os_distro ?? osType ?? "linux"), os_version: String(meta.os_version ?? "") };
}

/**
 * A network as the vendor SDK's `Network` model has it: the seed gives its id, name and scope,
 * perhaps its type and MTU; `subnets` are the ids of the subnets the store holds on it.
 */
export function completeNetwork(network: ApiRecord, region: (regionId: unknown) => string, subnets: string[]): ApiRecord {
  return {
    created_at: SEEDED_AT,
    creator_task_id: null,
    default: false,
    external: false,
    mtu: 1450,
    port_security_enabled: true,
    segmentation_id: null,
    shared: false,
    tags: [],
    task_id: null,
    type: "vxlan",
    updated_at: SEEDED_AT,
    ...network,
    region: region(network.region_id),
    subnets,
  };
}

/** A volume as the vendor SDK's `Volume` model has it (the seed gives its id, name, size and scope). */
export function completeVolume(volume: ApiRecord, region: (regionId: unknown) => string): ApiRecord {
  return {
    attachments: [],
    bootable: false,
    created_at: SEEDED_AT,
    creator_task_id: null,
    is_root_volume: false,
    limiter_stats: null,
    size: 1,
    snapshot_ids: [],
    status: "available",
    tags: [],
    task_id: null,
    updated_at: null,
    volume_image_metadata: {},
    volume_type: "standard",
    ...volume,
    region: region(volume.region_id),
  };
}
