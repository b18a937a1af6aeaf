// BaremetalImage: POST bmimages from a volume (asynchronous; the id comes from the task),
// PATCH images/{id} for what can change in place, DELETE (asynchronous), GET for refresh
// (owned.ts). No key identifies an image (names repeat, one volume makes many): one is its
// create's only by evidence (evidence.ts).
import { BaremetalImage as contract } from "../../api/contract/baremetal-image";
import { splitTags } from "../../api/tags";
import { apiPath } from "../client/path";
import type { OwnedDescriptor, Scoped } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import { ownedResource } from "../methods/owned";
import { OWN } from "../methods/inputs";

const scope = (i: Scoped) => ({ project_id: i.projectId, region_id: i.regionId });

export const imageDescriptor: OwnedDescriptor = {
  contract,
  own: {
    projectId: OWN.projectId,
    regionId: OWN.regionId,
    timeouts: OWN.timeouts,
    importId: OWN.importId,
    deleteAdopted: OWN.deleteAdopted,
  },
  scoped: true,
  patchSpelling: "record",
  label: (i, id) => `BaremetalImage "${String(i.name)}"${id ? ` (${id})` : ""}`,
  record: (r) => ({ readOnlyTags: splitTags(r.tags_v2).readOnly, projectId: r.project_id, regionId: r.region_id }),
  derived: ["readOnlyTags"],
  noun: "image",
  created: "images",
  createTask: "create_image",
  paths: { create: contract.paths.create, list: contract.paths.create, one: contract.paths.item, idParam: "image_id" },
  recordPath: (s, id) => apiPath(contract.paths.item, { project_id: s.projectId, region_id: s.regionId, image_id: id }),
  survey: (i) => ({ path: apiPath(contract.paths.create, scope(i)) }),
  findHint: (i) =>
    `GET ${apiPath(contract.paths.create, scope(i))} lists the images: look for one named "${String(i.name)}" made from volume ${String(i.volumeId)}`,
  import: {
    nouns: ["bare-metal image", "bare-metal images"],
    prefix: "image",
    id: (r) => String(r.id).toLowerCase(),
    name: (r) => r.name,
    args: (r, fields, scope) => ({ ...fields, ...scope, importId: String(r.id) }),
  },
};

const image = ownedResource(imageDescriptor);
export const imageTable = image.table;
export const baremetalImageMethods = image.methods;

/** BaremetalImage: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const BaremetalImage: KindEntry = { descriptor: imageDescriptor, table: imageTable, methods: baremetalImageMethods };
