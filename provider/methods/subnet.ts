// Subnet's provider methods: POST subnets (asynchronous; the id comes from the task), PATCH
// for the fields the service can change in place, DELETE (asynchronous), GET for refresh.
import type * as pulumi from "@pulumi/pulumi";
import { SUBNET } from "../../api/contract";
import { canonical, overlaps, parseCidr } from "../../api/net";
import { PATHS } from "../../api/paths";
import { splitTags } from "../../api/tags";
import { CimsError } from "../client/errors";
import { apiPath } from "../client/path";
import { type Adoptable, adopt, previewAdoption } from "./adopt";
import { apiClient } from "./context";
import { createViaTask, withContext } from "./lifecycle";
import { before, listNow, type Survey } from "./ours";
import { type Inputs, isUnknown, positiveInteger, timeouts, uuid4 } from "./schema";
import { ownedRecordMethods } from "./record-methods";
import { resourceTable } from "./table";

export const subnetTable = resourceTable({
  contract: SUBNET,
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
    totalIps: r.total_ips === undefined || r.total_ips === null ? r.total_ips : String(r.total_ips),
    readOnlyTags: splitTags(r.tags).readOnly,
    createdAt: r.created_at,
    projectId: r.project_id,
    regionId: r.region_id,
  }),
});

const scope = (i: Inputs) => ({ project_id: i.projectId as number, region_id: i.regionId as number });
const one = (i: Inputs, id: string) => apiPath(PATHS.subnet, { ...scope(i), subnet_id: id });
const what = (i: Inputs, id?: string) => `Subnet "${String(i.name)}"${id ? ` (${id})` : ""}`;

const adoptable: Adoptable = { table: subnetTable, noun: "subnet", what: (i) => what(i), recordPath: (i, id) => one(i, id) };

/**
 * Subnets this provider process saw a diff replace (their ids): a replacement's check() runs
 * with no old inputs while the old subnet still exists, and its new CIDR may overlap it. The
 * replacement deletes it first (diff), so it is no conflict.
 */
const replacing = new Set<string>();

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  // ipVersion defaults to the version of the cidr, so the state says which it is.
  const result = subnetTable.check(olds, news, (given) => ({ ipVersion: given.ipVersion ?? parseCidr(given.cidr)?.version }));
  if (result.failures?.length) return result;
  const inputs = result.inputs as Inputs;
  const creating = Object.keys(olds).length === 0;
  if (creating && inputs.importId === undefined && knownPlacement(inputs)) {
    // A CIDR already taken on the network fails at preview, before anything is written. A
    // list that fails here is not a failure yet: create() lists again before its POST.
    const taken = await listNow(survey(inputs)).then(
      (subnets) => overlapping(subnets, inputs),
      () => undefined,
    );
    if (taken) return { ...result, failures: [{ property: "cidr", reason: overlapMessage(inputs, taken) }] };
  }
  return { ...result, failures: await previewAdoption(adoptable, olds, inputs) };
}

const knownPlacement = (i: Inputs) =>
  ![i.networkId, i.cidr, i.projectId, i.regionId].some((v) => v === undefined || isUnknown(v)) && typeof i.cidr === "string";

/** The network's subnets to compare with: a new subnet is ours only if it was not among them. */
const survey = (i: Inputs): Survey => ({
  path: apiPath(PATHS.subnets, scope(i)),
  query: { network_id: String(i.networkId) },
  same: (s) => canonical("cidr", s.cidr) === canonical("cidr", i.cidr) && s.name === i.name,
});

/** A subnet of the network (not one being replaced in this run) whose CIDR overlaps the program's. */
function overlapping(subnets: ReadonlyArray<Record<string, unknown>>, inputs: Inputs): Record<string, unknown> | undefined {
  return subnets.find(
    (s) => !replacing.has(String(s.id).toLowerCase()) && typeof s.cidr === "string" && overlaps(s.cidr, String(inputs.cidr)),
  );
}

function overlapMessage(inputs: Inputs, taken: Record<string, unknown>): string {
  return (
    `cidr: ${String(inputs.cidr)} overlaps subnet "${String(taken.name)}" (${String(taken.id)}, ${String(taken.cidr)}) on network ` +
    `${String(inputs.networkId)}, and the service refuses overlapping subnets on one network, so nothing was created. To manage that subnet, adopt it: set \`importId: "${String(taken.id)}"\` and the program's cidr to ` +
    `${String(taken.cidr)}; otherwise pick a cidr that overlaps no subnet of the network`
  );
}

async function diff(id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  // A replacement on the same network with an overlapping CIDR would be refused while the
  // old subnet exists: delete it first.
  const collides =
    !isUnknown(news.cidr) &&
    canonical("uuid4", olds.networkId) === canonical("uuid4", news.networkId) &&
    typeof news.cidr === "string" &&
    typeof olds.cidr === "string" &&
    overlaps(olds.cidr, news.cidr);
  const result = subnetTable.diff(olds, news, collides);
  if ((result.replaces?.length ?? 0) > 0) replacing.add(id.toLowerCase());
  return result;
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  if (inputs.importId !== undefined) {
    return withContext(what(inputs), () => adopt(adoptable, inputs, (path, body) => apiClient().request("PATCH", path, { body })));
  }
  return withContext(what(inputs), async () => {
    // The network's subnets before the POST: a CIDR taken there fails now, with no write;
    // and should the POST's answer be lost, a subnet not among them is the one it made.
    const found = survey(inputs);
    const prior = await before(found).catch((err: unknown) => {
      throw new CimsError(`could not list the network's subnets before creating one, so nothing was created: ${(err as Error).message}`);
    });
    const taken = overlapping(prior.records, inputs);
    if (taken) throw new CimsError(overlapMessage(inputs, taken));
    const call = {
      survey: found,
      find: `GET ${apiPath(PATHS.subnets, scope(inputs))}?network_id=${String(inputs.networkId)} lists the network's subnets: it is the one named "${String(inputs.name)}" with cidr ${String(inputs.cidr)}`,
      path: apiPath(PATHS.subnets, scope(inputs)),
      body: subnetTable.body(inputs),
      kind: "subnets",
      recordPath: (id: string) => one(inputs, id),
    };
    return createViaTask(what(inputs), inputs, call, (record, taskIds) => subnetTable.outputs(inputs, record, taskIds), prior);
  });
}

const owned = ownedRecordMethods({ table: subnetTable, what, one, list: (i) => apiPath(PATHS.subnets, scope(i)) });

export const subnetMethods = { check, diff, create, ...owned };
