// The API's own request paths, as templates with {snake_case} parameters: tasks, projects
// and regions. Each resource's paths are in its contract (`paths`, with the operations they
// serve). The spec names five operations; the others come from the service's public API
// reference and the vendor's SDK.
export const PATHS = {
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
  /** GET (the vendor SDK's regions.list): every region, `limit`/`offset` paging. */
  regions: "/cloud/v1/regions",
  /** GET (the vendor SDK's networks.list): a scope's networks (model `gcore.types.cloud.network.Network`). */
  networks: "/cloud/v1/networks/{project_id}/{region_id}",
  /** GET (the vendor SDK's networks.get). */
  network: "/cloud/v1/networks/{project_id}/{region_id}/{network_id}",
  /** GET (the vendor SDK's volumes.list): a scope's volumes (model `gcore.types.cloud.volume.Volume`). */
  volumes: "/cloud/v1/volumes/{project_id}/{region_id}",
  /** GET (the vendor SDK's volumes.get). */
  volume: "/cloud/v1/volumes/{project_id}/{region_id}/{volume_id}",
} as const;

/** The list calls' page size when none is asked for, and the largest they serve. */
export const LIST_PAGE_MAX = 1000;
