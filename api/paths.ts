// The API's own request paths, as templates with {snake_case} parameters: the tasks'. Each
// resource's paths are in its contract (`paths`, with the operations they serve), and so are
// those of the records no stack writes (projects, regions, networks, volumes:
// ./contract/read-only.ts). The spec names five operations; the others come from the service's
// public API reference and the vendor's SDK.
export const PATHS = {
  /** GET (reference); the spec writes /v1/tasks/{task_id} and leaves the prefix open. */
  task: "/cloud/v1/tasks/{task_id}",
  /** GET (the vendor SDK): tasks, filtered and paged. */
  tasks: "/cloud/v1/tasks",
  taskSpec: "/v1/tasks/{task_id}",
} as const;

/** The list calls' page size when none is asked for, and the largest they serve. */
export const LIST_PAGE_MAX = 1000;
