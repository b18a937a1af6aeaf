// Projects and regions (the vendor SDK's projects.list, projects.get and regions.get): the
// cheap authenticated reads a client makes to prove its key. Read-only here.
import { PATHS } from "../../api/paths";
import { notFound, validationError } from "../http-errors";
import { intParam, listPage, type RequestContext, type Router, type Services } from "../router";
import type { ApiRecord } from "../../api/guards";
import { regionAnswer } from "./networks";

const ORDERS = ["created_at.asc", "created_at.desc", "name.asc", "name.desc"];

export function registerProjectRoutes(router: Router, services: Services): void {
  router.add("GET", PATHS.projects, (ctx) => listProjects(services, ctx));
  router.add("GET", PATHS.project, (ctx) => {
    const id = intParam(ctx, "project_id");
    const project = services.store.get("projects", id);
    if (!project || project.deleted_at !== null) throw notFound("Project", id);
    return { status: 200, body: project };
  });
  router.add("GET", PATHS.region, (ctx) => {
    const id = intParam(ctx, "region_id");
    const region = services.store.get("regions", id);
    if (!region) throw notFound("Region", id);
    return { status: 200, body: regionAnswer(region) };
  });
}

function listProjects(services: Services, ctx: RequestContext) {
  const order = ctx.query.get("order_by") ?? "created_at.asc";
  if (!ORDERS.includes(order)) throw validationError({ order_by: [`Must be one of ${ORDERS.join(", ")}.`] });
  const includeDeleted = ctx.query.get("include_deleted");
  if (includeDeleted !== null && includeDeleted !== "true" && includeDeleted !== "false")
    throw validationError({ include_deleted: ["Must be a valid boolean."] });
  const name = ctx.query.get("name");
  const [field, direction] = order.split(".");
  const key = (p: ApiRecord) => `${String(p[field])}\u0000${String(p.id).padStart(20, "0")}`;
  const projects = services.store
    .list("projects")
    .filter((p) => includeDeleted === "true" || p.deleted_at === null)
    .filter((p) => name === null || p.name === name)
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (direction === "asc" ? 1 : -1));
  return listPage(ctx, projects);
}
