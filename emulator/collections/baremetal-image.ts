// Images: POST bmimages from a volume (spec, asynchronous; also at the vendor SDK's POST
// images), GET/PATCH/DELETE by id (public API reference), and the lists. The source volume is
// locked while its image is being made. Records carry their tags as `tags_v2` (../store/complete.ts).
import { randomUUID } from "node:crypto";
import { apiTimestamp } from "../clock";
import { notFound } from "../http-errors";
import {
  assertUnlocked,
  type Call,
  inScope,
  listPage,
  listScoped,
  madeByTask,
  type RequestContext,
  scopeOf,
  type Services,
  startTask,
} from "../router";
import type { EmulatedResource, RegionName } from "./emulated-resource";
import { taggedItem } from "./tagged-item";
import { spelled } from "../../api/canonical";
import { recordFields } from "../../api/contract";
import { BaremetalImage as contract } from "../../api/contract/baremetal-image";
import { newTags } from "../tags";
import { osOfVolume } from "../store/complete";
import type { ApiRecord } from "../../api/guards";

function create(services: Services, call: Call) {
  const scope = scopeOf(call);
  const { projectId, regionId } = scope;
  const body = call.checked();
  const volume = services.store.get("volumes", body.volume_id);
  if (!inScope(volume, projectId, regionId)) throw notFound("Volume", body.volume_id);
  assertUnlocked(services, "volumes", body.volume_id, "Volume");

  const id = randomUUID();
  const taskId = randomUUID();
  const now = apiTimestamp(call.now);
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
  return startTask(services, call, {
    taskId,
    projectId,
    regionId,
    effects: [{ op: "put", collection: "images", record }],
    locks: [
      { collection: "images", id },
      { collection: "volumes", id: String(body.volume_id) },
    ],
    created: [id],
  });
}

/** GET, PATCH and DELETE by id. */
const item = taggedItem({
  collection: "images",
  idParam: "image_id",
  what: "Image",
  contract,
});

/** GET bmimages (reference): the scope's bare-metal images; GET images (the SDK's): all of them. */
const list = (services: Services, ctx: RequestContext) => listPage(ctx, listScoped(services, ctx, "images"));

/** BaremetalImage: the images, and what the service does on each of its calls. */
export const BaremetalImage: EmulatedResource = {
  store: { name: "images", key: "id", complete: completeImage },
  contract,
  operations: {
    create,
    list,
    get: item.get,
    update: item.patch,
    delete: item.remove,
    more: { createFromVolume: create, listImages: list },
  },
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
