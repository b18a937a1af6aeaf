// Images: POST bmimages from a volume (spec, asynchronous; also at the vendor SDK's POST
// images), GET/PATCH/DELETE by id (public API reference), and the lists. The source volume is
// locked while its image is being made. Records carry their tags as `tags_v2` (../store/complete.ts).
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "../clock";
import { notFound } from "../http-errors";
import {
  assertUnlocked,
  checkedBody,
  inScope,
  listPage,
  listScoped,
  madeByTask,
  type RequestContext,
  type Router,
  scopeOf,
  type Services,
  startTask,
} from "../router";
import type { EmulatedResource, RegionName } from "./emulated-resource";
import { taggedItem } from "./tagged-item";
import { validator } from "../validation";
import { spelled } from "../../api/canonical";
import { recordFields } from "../../api/contract";
import { BaremetalImage as contract } from "../../api/contract/baremetal-image";
import { newTags } from "../tags";
import { osOfVolume } from "../store/complete";
import type { ApiRecord } from "../../api/guards";

export const validateImageCreate = validator(contract, "create");
export const validateImagePatch = validator(contract, "patch", Object.keys(contract.record));

function registerImageRoutes(router: Router, services: Services): void {
  router.add("POST", contract.paths.create, (ctx) => create(services, ctx));
  router.add("POST", contract.paths.collection, (ctx) => create(services, ctx));
  // GET bmimages (reference): the scope's bare-metal images; GET images (the SDK's): all of them.
  router.add("GET", contract.paths.create, (ctx) => listPage(ctx, listScoped(services, ctx, "images")));
  router.add("GET", contract.paths.collection, (ctx) => listPage(ctx, listScoped(services, ctx, "images")));
  router.add("GET", contract.paths.item, (ctx) => ({ status: 200, body: item.find(services, ctx) }));
  router.add("PATCH", contract.paths.item, (ctx) => item.patch(services, ctx));
  router.add("DELETE", contract.paths.item, (ctx) => item.remove(services, ctx));
}

function create(services: Services, ctx: RequestContext) {
  const scope = scopeOf(ctx);
  const { projectId, regionId } = scope;
  const body = checkedBody(ctx, validateImageCreate, contract);
  const volume = services.store.get("volumes", body.volume_id);
  if (!inScope(volume, projectId, regionId)) throw notFound("Volume", body.volume_id);
  assertUnlocked(services, "volumes", body.volume_id, "Volume");

  const id = randomUUID();
  const taskId = randomUUID();
  const now = apiTimestamp(ctx.now);
  // The contract's fields as given or defaulted (tags as tags_v2, with the service's own), then
  // what the service adds: the OS from the volume's image metadata, status, sizes.
  const fields = recordFields(contract, body, { newTags: (given) => newTags(given, taskId) });
  const record: ApiRecord = {
    id,
    ...fields,
    ...osOfVolume(volume, fields.os_type),
    status: "active",
    visibility: "private",
    disk_format: "raw",
    min_disk: Number(volume!.size ?? 1),
    min_ram: 0,
    size: BigInt(Number(volume!.size ?? 1)) * 1073741824n,
    ...madeByTask(services, scope, taskId, now),
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

/** GET, PATCH and DELETE by id. */
const item = taggedItem({
  collection: "images",
  idParam: "image_id",
  what: "Image",
  contract,
  validatePatch: validateImagePatch,
  deleteTaskType: "delete_image",
});

/** BaremetalImage: the routes that serve images. */
export const BaremetalImage: EmulatedResource = {
  store: { name: "images", key: "id", complete: completeImage },
  routes: registerImageRoutes,
};

/** Image fields the service fills, and its spelling of the machine type. */
function completeImage(image: ApiRecord, region: RegionName): ApiRecord {
  const { tags, ...rest } = image;
  const machine =
    typeof rest.hw_machine_type === "string" ? spelled(rest.hw_machine_type, contract.fields.hwMachineType.type, "record") : null;
  return {
    os_distro: String(rest.os_type ?? "linux"),
    os_version: "",
    min_ram: 0,
    region: region(rest.region_id),
    ...rest,
    hw_machine_type: machine,
    tags_v2: rest.tags_v2 ?? tags ?? [],
  };
}
