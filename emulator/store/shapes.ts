// The shapes of what the store holds: its collections of records (in the API's own snake_case
// shapes) and its tasks, as the store keeps them and the task engine moves them along.
import type { ApiRecord } from "../../api/guards";

/**
 * The collections of the API's own that the resources refer to (a subnet's network, an image's
 * volume) or that scope them. The resources' collections are each declared by its file in
 * ../collections/ (`store`); ./collections.ts holds them all.
 */
export const BASE_COLLECTIONS = ["projects", "regions", "networks", "routers", "volumes", "instances"] as const;

/**
 * A collection's name: one of BASE_COLLECTIONS or one a resource's file declares. A string,
 * not a union of them: the names come from the registry, which imports what uses this type;
 * the store refuses a name it does not keep (./collections.ts).
 */
export type CollectionName = string;

/** The region's name for a region id (records carry it as `region`). */
export type RegionName = (regionId: unknown) => string;

/** A collection of records the emulator keeps. */
export interface StoreSpec {
  /** Its name in seeds, state files, task effects and the control API (the service's plural). */
  readonly name: string;
  /** The field that identifies a record. */
  readonly key: string;
  /**
   * Fields a seeded record must hold as integers. Default: `project_id` and `region_id`, a
   * record scoped to a project and region (a camelCase `projectId` would otherwise load and
   * leave every request a puzzling 404).
   */
  readonly integers?: readonly string[];
  /** The record with every field the service's model requires, filled where a seed, a request or an older state file left it out. */
  complete?(record: ApiRecord, region: RegionName): ApiRecord;
}

/** Every kind the API reports in created_resources; unused kinds are empty lists. */
export const RESOURCE_KINDS = [
  "ai_clusters",
  "ai_instances",
  "caas_containers",
  "ddos_profiles",
  "faas_functions",
  "faas_namespaces",
  "file_shares",
  "floatingips",
  "healthmonitors",
  "heat",
  "images",
  "inference_instances",
  "instances",
  "k8s_clusters",
  "k8s_pools",
  "l7polices",
  "l7rules",
  "laas_topic",
  "listeners",
  "loadbalancers",
  "members",
  "networks",
  "pools",
  "ports",
  "postgresql_clusters",
  "projects",
  "registry_registries",
  "registry_users",
  "routers",
  "secrets",
  "servergroups",
  "snapshots",
  "subnets",
  "volumes",
] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export type Effect =
  { op: "put"; collection: CollectionName; record: ApiRecord } | { op: "delete"; collection: CollectionName; id: string };

/** What the API returns, plus our bookkeeping under `_emulator` (never sent). */
export interface TaskRecord {
  id: string;
  state: "NEW" | "RUNNING" | "FINISHED" | "ERROR";
  task_type: string;
  user_id: number;
  client_id: number;
  project_id: number | null;
  region_id: number | null;
  request_id: string;
  created_on: string;
  updated_on: string | null;
  finished_on: string | null;
  created_resources: Record<ResourceKind, string[]> | null;
  error: string | null;
  data: null;
  /** The vendor's finer state, for the task types that have one (none of ours): null. */
  detailed_state: null;
  _emulator: {
    createdAt: number;
    runningAt: number;
    finishAt: number;
    hang: boolean;
    failWith?: string;
    keepCreated?: boolean;
    effects: Effect[];
    rollback: Effect[];
    locks: Array<{ collection: CollectionName; id: string }>;
    createdResources: Partial<Record<ResourceKind, string[]>>;
    gets: number;
    firstSeenFinishedAt?: number;
    path: string;
  };
}
