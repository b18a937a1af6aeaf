// Task status, at /cloud/v1/tasks/{id} (public API reference) and /v1/tasks/{id} (the
// spec's wording; its prefix is left open there), and the task list the vendor's SDK reads
// (`project_id`, `region_id` and `state` filters, each repeatable; `task_type`; `from_timestamp`,
// the tasks created at or after it; paging).
import { PATHS } from "../../api/paths";
import { notFound, validationError } from "../http-errors";
import { listPage, type RequestContext, type Router, type Services } from "../router";

export function registerTaskRoutes(router: Router, services: Services): void {
  const get = (ctx: RequestContext) => {
    const task = services.store.tasks[ctx.params.task_id];
    if (!task) throw notFound("Task", ctx.params.task_id);
    return { status: 200, body: services.engine.view(task, ctx.now) };
  };
  router.add("GET", PATHS.task, get);
  router.add("GET", PATHS.taskSpec, get);
  router.add("GET", PATHS.tasks, (ctx) => list(services, ctx));
}

const STATES = ["NEW", "RUNNING", "FINISHED", "ERROR"];

function list(services: Services, ctx: RequestContext) {
  const ints = (name: string) =>
    ctx.query.getAll(name).map((v) => {
      if (!/^\d+$/.test(v)) throw validationError({ [name]: ["A valid integer is required."] });
      return Number(v);
    });
  const projects = ints("project_id");
  const regions = ints("region_id");
  const states = ctx.query.getAll("state");
  const bad = states.find((s) => !STATES.includes(s));
  if (bad !== undefined) throw validationError({ state: [`"${bad}" is not a valid choice.`] });
  const type = ctx.query.get("task_type");
  const from = ctx.query.get("from_timestamp");
  const since = from === null ? undefined : utc(from);
  if (since !== undefined && Number.isNaN(since)) throw validationError({ from_timestamp: ["Enter a valid date/time."] });
  const tasks = Object.values(services.store.tasks)
    .filter((t) => projects.length === 0 || projects.includes(Number(t.project_id)))
    .filter((t) => regions.length === 0 || regions.includes(Number(t.region_id)))
    .filter((t) => states.length === 0 || states.includes(t.state))
    .filter((t) => type === null || t.task_type === type)
    .filter((t) => since === undefined || utc(t.created_on) >= since)
    .sort((a, b) => a._emulator.createdAt - b._emulator.createdAt)
    .map((t) => {
      const { _emulator, ...visible } = t;
      return visible;
    });
  return listPage(ctx, tasks);
}

/** A time as the service writes it (UTC, its zone left out) or as a client sends it (with one). */
const utc = (text: string): number => Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
