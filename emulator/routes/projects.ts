// Projects and regions (the vendor SDK's projects.list/get and regions.list/get): the account's
// records, read only, served from their read-only contracts as a kind's calls are from its
// contract (../serve.ts). A project's record is the cheap authenticated read a client makes to
// prove its key; the lookups read both lists.
import { idParam, type ReadOnlyContract } from "../../api/contract";
import { Project, Region } from "../../api/contract/read-only";
import type { ApiRecord } from "../../api/guards";
import { notFound, validationError } from "../http-errors";
import { intParam, listPage, type RequestContext, type Services } from "../router";
import type { Served } from "../serve";

const ORDERS = ["created_at.asc", "created_at.desc", "name.asc", "name.desc"];

/** The region as regions.get answers it: the seed's `name` is the emulator's own (records' `region`). */
function regionAnswer(region: ApiRecord): ApiRecord {
  const { name: _name, ...answer } = region;
  return answer;
}

export const ProjectReads: Served<ReadOnlyContract> = {
  contract: Project,
  operations: {
    list: (services, call) => listProjects(services, call),
    get: (services, call) => {
      const id = intParam(call, idParam(Project));
      const project = services.store.get("projects", id);
      if (!project || project.deleted_at !== null) throw notFound("Project", id);
      return { status: 200, body: project };
    },
  },
};

export const RegionReads: Served<ReadOnlyContract> = {
  contract: Region,
  operations: {
    list: (services, call) => listPage(call, services.store.list("regions").map(regionAnswer)),
    get: (services, call) => {
      const id = intParam(call, idParam(Region));
      const region = services.store.get("regions", id);
      if (!region) throw notFound("Region", id);
      return { status: 200, body: regionAnswer(region) };
    },
  },
};

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
