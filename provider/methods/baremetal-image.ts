// BaremetalImage's provider methods: POST bmimages from a volume (asynchronous; the id
// comes from the task), PATCH images/{id} for what can change in place, DELETE
// (asynchronous), GET for refresh.
import type * as pulumi from "@pulumi/pulumi";
import { IMAGE } from "../../api/contract";
import { PATHS } from "../../api/paths";
import { splitTags } from "../../api/tags";
import { apiPath } from "../client/path";
import { type Adoptable, adopt, previewAdoption } from "./adopt";
import { canonical } from "../../api/net";
import { CimsError } from "../client/errors";
import { apiClient } from "./context";
import { before, type Survey } from "./ours";
import { createViaTask, withContext } from "./lifecycle";
import { type Inputs, positiveInteger, timeouts, uuid4 } from "./schema";
import { ownedRecordMethods } from "./record-methods";
import { resourceTable } from "./table";

export const imageTable = resourceTable({
  contract: IMAGE,
  extra: {
    projectId: positiveInteger.optional(),
    regionId: positiveInteger.optional(),
    timeouts: timeouts.optional(),
    importId: uuid4.optional(),
  },
  replaces: ["projectId", "regionId"],
  neverDiff: ["importId"],
  scoped: true,
  patchSpelling: "record",
  note: (i) => what(i),
  record: (r) => ({
    status: r.status,
    readOnlyTags: splitTags(r.tags_v2).readOnly,
    createdAt: r.created_at,
    projectId: r.project_id,
    regionId: r.region_id,
  }),
});

const scope = (i: Inputs) => ({ project_id: i.projectId as number, region_id: i.regionId as number });
const one = (i: Inputs, id: string) => apiPath(PATHS.image, { ...scope(i), image_id: id });
const what = (i: Inputs, id?: string) => `BaremetalImage "${String(i.name)}"${id ? ` (${id})` : ""}`;

const adoptable: Adoptable = { table: imageTable, noun: "image", what: (i) => what(i), recordPath: (i, id) => one(i, id) };

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const result = imageTable.check(olds, news);
  if (result.failures?.length) return result;
  return { ...result, failures: await previewAdoption(adoptable, olds, result.inputs as Inputs) };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  return imageTable.diff(olds, news);
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  if (inputs.importId !== undefined) {
    return withContext(what(inputs), () => adopt(adoptable, inputs, (path, body) => apiClient().request("PATCH", path, { body })));
  }
  return withContext(what(inputs), async () => {
    // The scope's images before the POST: should its answer be lost, an image not among
    // them, with this name and volume, is the one it made (no key identifies an image).
    const found: Survey = {
      path: apiPath(PATHS.bmimages, scope(inputs)),
      same: (i) => i.name === inputs.name && canonical("uuid4", i.volume_id) === canonical("uuid4", inputs.volumeId),
    };
    const prior = await before(found).catch((err: unknown) => {
      throw new CimsError(`could not list the images before creating one, so nothing was created: ${(err as Error).message}`);
    });
    const call = {
      survey: found,
      find: `GET ${apiPath(PATHS.bmimages, scope(inputs))} lists the images: it is one named "${String(inputs.name)}" made from volume ${String(inputs.volumeId)}, created after the POST`,
      path: apiPath(PATHS.bmimages, scope(inputs)),
      body: imageTable.body(inputs),
      kind: "images",
      recordPath: (id: string) => one(inputs, id),
    };
    return createViaTask(what(inputs), inputs, call, (record, taskIds) => imageTable.outputs(inputs, record, taskIds), prior);
  });
}

const owned = ownedRecordMethods({ table: imageTable, what, one, list: (i) => apiPath(PATHS.bmimages, scope(i)) });

export const baremetalImageMethods = { check, diff, create, ...owned };
