// Every request path of the API, as templates with {snake_case} parameters: each resource's
// are in its contract (with the operations they serve); the tasks', projects' and regions'
// are here. The spec names five operations; the others come from the service's public API
// reference and the vendor's SDK.
import { BaremetalImage } from "./contract/baremetal-image";
import { LbPoolSettings } from "./contract/lb-pool-settings";
import { QuotaThreshold } from "./contract/quota-threshold";
import { SnapshotPolicyState } from "./contract/snapshot-policy-state";
import { Subnet } from "./contract/subnet";

export const PATHS = {
  subnets: Subnet.paths.collection,
  subnet: Subnet.paths.item,
  bmimages: BaremetalImage.paths.create,
  image: BaremetalImage.paths.item,
  images: BaremetalImage.paths.collection,
  lbpools: LbPoolSettings.paths.collection,
  lbpool: LbPoolSettings.paths.item,
  lbpoolV2: LbPoolSettings.paths.itemV2,
  lbpoolHealthmonitor: LbPoolSettings.paths.healthmonitor,
  policies: SnapshotPolicyState.paths.collection,
  policy: SnapshotPolicyState.paths.item,
  notificationThreshold: QuotaThreshold.paths.item,
  /** GET (reference); the spec writes /v1/tasks/{task_id} and leaves the prefix open. */
  task: "/cloud/v1/tasks/{task_id}",
  /** GET (the vendor SDK): tasks, filtered and paged. */
  tasks: "/cloud/v1/tasks",
  taskSpec: "/v1/tasks/{task_id}",
  /** GET (the vendor SDK's projects.list): the key's projects, `limit`/`offset` paging. */
  projects: "/cloud/v1/projects",
  /** GET (the vendor SDK's projects.get): one project, the cheapest read that proves a key. */
  project: "/cloud/v1/projects/{project_id}",
  /** GET (the vendor SDK's regions.get). */
  region: "/cloud/v1/regions/{region_id}",
} as const;

/** The list calls' page size when none is asked for, and the largest they serve. */
export const LIST_PAGE_MAX = 1000;
