// Images: POST bmimages from a volume (spec, asynchronous; also at the vendor SDK's POST
// images), GET/PATCH/DELETE by id (public API reference), and the lists. The source volume is
// locked while its image is being made. Records carry their tags as `tags_v2` (records.ts).
import { randomUUID } from "node:crypto";
import { PATHS } from "../../api/paths";
import { apiTimestamp } from "../clock";
import { notFound } from "../errors";
import {
  assertUnlocked,
  bodyObject,
  deleteByTask,
  findScoped,
  inScope,
  intParam,
  listPage,
  listScoped,
  requireValid,
  type RequestContext,
  type Router,
  type Services,
  startTask,
} from "../router";
import type { ApiRecord } from "../state";
import { IMAGE } from "../../api/contract";
import { canonicalBody, validateImageCreate, validateImagePatch } from "../validation";
import { mergeTags, newTags } from "./tags";
import { osOfVolume } from "../records";

const PATCHABLE = ["name", "hw_firmware_type", "hw_machine_type", "is_baremetal", "os_type", "ssh_key"] as const;

export function registerImageRoutes(router: Router, services: Services): void {
  router.add("POST", PATHS.bmimages, (ctx) => create(services, ctx));
  router.add("POST", PATHS.images, (ctx) => create(services, ctx));
  // GET bmimages (reference): the scope's bare-metal images; GET images (the SDK's): all of them.
  router.add("GET", PATHS.bmimages, (ctx) => listPage(ctx, listScoped(services, ctx, "images")));
  router.add("GET", PATHS.images, (ctx) => listPage(ctx, listScoped(services, ctx, "images")));
  router.add("GET", PATHS.image, (ctx) => ({ status: 200, body: find(services, ctx) }));
  router.add("PATCH", PATHS.image, (ctx) => patch(services, ctx));
  router.add("DELETE", PATHS.image, (ctx) => remove(services, ctx));
}

function create(services: Services, ctx: RequestContext) {
  const projectId = intParam(ctx, "project_id");
  const regionId = intParam(ctx, "region_id");
  const raw = bodyObject(ctx);
  requireValid(validateImageCreate(raw));
  const body = canonicalBody(raw, IMAGE);
  const volume = services.store.get("volumes", body.volume_id);
  if (!inScope(volume, projectId, regionId)) throw notFound("Volume", body.volume_id);
  assertUnlocked(services, "volumes", body.volume_id, "Volume");

  const id = randomUUID();
  const taskId = randomUUID();
  const now = apiTimestamp(ctx.now);
  const record: ApiRecord = {
    id,
    name: body.name,
    volume_id: body.volume_id,
    architecture: body.architecture ?? "x86_64",
    hw_firmware_type: body.hw_firmware_type ?? null,
    hw_machine_type: body.hw_machine_type ?? null,
    is_baremetal: body.is_baremetal ?? false,
    os_type: body.os_type ?? "linux",
    ...osOfVolume(volume, body.os_type ?? "linux"),
    source: body.source ?? "volume",
    ssh_key: body.ssh_key ?? "allow",
    tags_v2: newTags(body.tags, taskId),
    status: "active",
    visibility: "private",
    disk_format: "raw",
    min_disk: Number(volume!.size ?? 1),
    min_ram: 0,
    size: BigInt(Number(volume!.size ?? 1)) * 1073741824n,
    creator_task_id: taskId,
    task_id: null,
    project_id: projectId,
    region_id: regionId,
    region: services.store.regionName(regionId),
    created_at: now,
    updated_at: now,
  };
  return startTask(services, ctx, {
    taskId,
    taskType: "create_image",
    projectId,
    regionId,
    effects: [{ op: "put", collection: "images", record }],
    locks: [
      { collection: "images", id },
      { collection: "volumes", id: String(body.volume_id) },
    ],
    createdResources: { images: [id] },
  });
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, "images", "image_id", "Image");
}

function unlocked(services: Services, id: string): void {
  assertUnlocked(services, "images", id, "Image");
}

function patch(services: Services, ctx: RequestContext) {
  const image = find(services, ctx);
  const raw = bodyObject(ctx);
  requireValid(validateImagePatch(raw));
  const body = canonicalBody(raw, IMAGE);
  unlocked(services, String(image.id));
  const updated: ApiRecord = { ...image, updated_at: apiTimestamp(ctx.now) };
  for (const field of PATCHABLE) if (field in body) updated[field] = body[field];
  if ("tags" in body) updated.tags_v2 = mergeTags(image.tags_v2, body.tags);
  services.store.put("images", updated);
  services.store.persist();
  return { status: 200, body: updated };
}

function remove(services: Services, ctx: RequestContext) {
  return deleteByTask(services, ctx, find(services, ctx), "images", "Image", "delete_image");
}
