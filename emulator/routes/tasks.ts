// Task status, at /cloud/v1/tasks/{id} (public API reference) and /v1/tasks/{id} (the
// spec's wording; its prefix is left open there).
import { PATHS } from "../../api/paths";
import { notFound } from "../errors";
import type { RequestContext, Router, Services } from "../router";

export function registerTaskRoutes(router: Router, services: Services): void {
  const get = (ctx: RequestContext) => {
    const task = services.store.tasks[ctx.params.task_id];
    if (!task) throw notFound("Task", ctx.params.task_id);
    return { status: 200, body: services.engine.view(task, ctx.now) };
  };
  router.add("GET", PATHS.task, get);
  router.add("GET", PATHS.taskSpec, get);
}
