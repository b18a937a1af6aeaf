// Records as the service holds them, made by hand or by another team (not by a stack under
// test), for seeding the emulator or stating what it answers: one shape per kind, written
// here once, so that a test states only what matters to it.
import { SEED } from "./cims";

const TS = "2026-05-23T05:07:31";
/** The task that made a seeded record: not one of any stack's. */
export const FOREIGN_TASK = "0f0e0d0c-0b0a-4908-8706-050403020100";

const readOnly = (task: string) => ({ key: "creator_task_id", value: task, read_only: true });
const userTags = (tags: Record<string, string>) => Object.entries(tags).map(([key, value]) => ({ key, value, read_only: false }));

/** A subnet on the seed's network in project 1, region 1; `tags` are the users' (the service adds its own). */
export function subnetRecord(over: Record<string, unknown> & { tags?: Record<string, string> } = {}): Record<string, unknown> {
  const { tags = {}, ...rest } = over;
  const task = String(over.creator_task_id ?? FOREIGN_TASK);
  return {
    name: "legacy",
    cidr: "10.60.0.0/24",
    network_id: SEED.networkId,
    ip_version: 4,
    enable_dhcp: true,
    gateway_ip: "10.60.0.1",
    dns_nameservers: [],
    host_routes: [],
    has_router: false,
    total_ips: 256,
    available_ips: 255,
    creator_task_id: task,
    task_id: null,
    project_id: 1,
    region_id: 1,
    region: "Luxembourg",
    created_at: TS,
    updated_at: TS,
    ...rest,
    tags: [...userTags(tags), readOnly(task)],
  };
}

/** A bare-metal image from the seed's volume in project 1, region 1, made outside any stack; `tags` are the users'. */
export function imageRecord(over: Record<string, unknown> & { tags?: Record<string, string> } = {}): Record<string, unknown> {
  const { tags = {}, ...rest } = over;
  return {
    name: "golden",
    volume_id: SEED.volumeId,
    architecture: "x86_64",
    hw_firmware_type: null,
    hw_machine_type: null,
    is_baremetal: true,
    os_type: "linux",
    source: "volume",
    ssh_key: "allow",
    status: "active",
    visibility: "private",
    disk_format: "raw",
    min_disk: 10,
    size: 10737418240,
    creator_task_id: null,
    task_id: null,
    project_id: 1,
    region_id: 1,
    created_at: TS,
    updated_at: TS,
    ...rest,
    // The service's field for an image's tags (requests send `tags`).
    tags_v2: userTags(tags),
  };
}

/**
 * A pool member as the service answers it: what it was made with (`over`: address, port,
 * and whatever else the test set) over the fields the service fills in.
 */
export function memberRecord(over: Record<string, unknown>): Record<string, unknown> {
  const filled = { weight: 1, subnet_id: null, admin_state_up: true, backup: false, monitor_address: null, monitor_port: null };
  return { ...filled, operating_status: "NO_MONITOR", provisioning_status: "ACTIVE", ...over };
}
