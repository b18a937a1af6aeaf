// Every request path of the API, as templates with {snake_case} parameters. The spec names
// five operations; the others come from the service's public API reference.
export const PATHS = {
  /** POST (spec): create; GET (reference): list, `network_id` filter, `limit`/`offset` paging. */
  subnets: "/cloud/v1/subnets/{project_id}/{region_id}",
  /** GET, PATCH, DELETE (reference). */
  subnet: "/cloud/v1/subnets/{project_id}/{region_id}/{subnet_id}",
  /** POST (spec): create from a volume; GET (reference): list, `limit`/`offset` paging. */
  bmimages: "/cloud/v1/bmimages/{project_id}/{region_id}",
  /** GET, PATCH, DELETE (reference). */
  image: "/cloud/v1/images/{project_id}/{region_id}/{image_id}",
  /** POST (the vendor SDK's create from a volume, beside the spec's bmimages) and GET (list). */
  images: "/cloud/v1/images/{project_id}/{region_id}",
  /** GET (reference): list, `limit`/`offset` paging. */
  lbpools: "/cloud/v1/lbpools/{project_id}/{region_id}",
  /** PATCH (spec), GET (reference). */
  lbpool: "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}",
  /** PATCH (the vendor SDK's pool update, beside the spec's v1 path). */
  lbpoolV2: "/cloud/v2/lbpools/{project_id}/{region_id}/{pool_id}",
  /** POST (the vendor SDK: creates one, a task) and DELETE (reference): the pool's health monitor. */
  lbpoolHealthmonitor: "/cloud/v1/lbpools/{project_id}/{region_id}/{pool_id}/healthmonitor",
  /** GET (reference): list, `limit`/`offset` paging. */
  policies: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}",
  /** PATCH (spec), GET with need_volumes=true (reference). */
  policy: "/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}",
  /** PUT (spec), GET and DELETE (reference). */
  notificationThreshold: "/cloud/v2/client_quotas/{client_id}/notification_threshold",
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
