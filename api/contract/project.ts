// Project: the key's projects (the vendor SDK's projects.list and projects.get), read only. One
// project's record is the cheapest read that proves a key; getProject finds one in the list.
import type { ReadOnlyContract } from "./types";

const MODEL = "gcore.types.cloud.project.Project";

export const Project = {
  name: "Project",
  doc: "A project of the key's account: where a scoped record lives, with its region.",
  paths: {
    /** GET (the vendor SDK): the key's projects, `limit`/`offset` paging, `name`, `order_by` and `include_deleted`. */
    collection: "/cloud/v1/projects",
    /** GET (the vendor SDK): one project, the cheapest read that proves a key. */
    item: "/cloud/v1/projects/{project_id}",
  },
  operations: {
    list: { method: "GET", path: "collection", response: MODEL },
    get: { method: "GET", path: "item", response: MODEL },
  },
  vendorLeftOut: {
    deleted_at:
      "The list holds a deleted project only when asked with `include_deleted`, which getProject never sends, so every project it finds has none.",
    task_id: "The service's last task on the project, bookkeeping that no program refers to.",
  },
} as const satisfies ReadOnlyContract;
