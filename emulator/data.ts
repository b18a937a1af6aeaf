// The shapes of the emulator's data: its collections of records (in the API's own snake_case
// shapes) and its tasks, as the store keeps them and the task engine moves them along.

export type ApiRecord = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is ApiRecord => typeof v === "object" && v !== null && !Array.isArray(v);

export const COLLECTIONS = [
  "projects",
  "regions",
  "networks",
  "routers",
  "volumes",
  "subnets",
  "images",
  "lbpools",
  "lifecycle_policies",
  "client_quotas",
] as const;
export type Collection = (typeof COLLECTIONS)[number];

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

export type Effect = { op: "put"; collection: Collection; record: ApiRecord } | { op: "delete"; collection: Collection; id: string };

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
    locks: Array<{ collection: Collection; id: string }>;
    createdResources: Partial<Record<ResourceKind, string[]>>;
    gets: number;
    firstSeenFinishedAt?: number;
    path: string;
  };
}
