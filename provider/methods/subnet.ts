// Subnet's provider methods: POST subnets (asynchronous; the id comes from the task), PATCH
// for the fields the service can change in place, DELETE (asynchronous), GET for refresh.
import type * as pulumi from "@pulumi/pulumi";
import { SUBNET } from "../../api/contract";
import { canonical, overlaps, parseCidr } from "../../api/net";
import { PATHS } from "../../api/paths";
import { CREATOR_TAG, splitTags } from "../../api/tags";
import { CimsError } from "../client/errors";
import { apiPath } from "../client/path";
import { type Adoptable, adopt, previewAdoption } from "./adopt";
import { listAll } from "../client/list";
import { apiClient, deadlineFor, log, progress } from "./context";
import { createViaTask, partialCreate, withContext } from "./lifecycle";
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

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  // ipVersion defaults to the version of the cidr, so the state says which it is.
  const result = subnetTable.check(olds, news, (given) => ({ ipVersion: given.ipVersion ?? parseCidr(given.cidr)?.version }));
  if (result.failures?.length) return result;
  return { ...result, failures: await previewAdoption(adoptable, olds, result.inputs as Inputs) };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  // A replacement on the same network with an overlapping CIDR would be refused while the
  // old subnet exists: delete it first.
  const collides =
    !isUnknown(news.cidr) &&
    olds.networkId === news.networkId &&
    typeof news.cidr === "string" &&
    typeof olds.cidr === "string" &&
    overlaps(olds.cidr, news.cidr);
  return subnetTable.diff(olds, news, collides);
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  if (inputs.importId !== undefined) {
    return withContext(what(inputs), () => adopt(adoptable, inputs, (path, body) => apiClient().request("PATCH", path, { body })));
  }
  const call = {
    // The service refuses overlapping CIDRs on a network: a subnet with exactly ours on our
    // network, after an answer was lost, is the one this create made.
    recover: async () => ({ found: await findOurs(inputs) }),
    find: `GET ${apiPath(PATHS.subnets, scope(inputs))}?network_id=${String(inputs.networkId)} lists the network's subnets: it is the one with cidr ${String(inputs.cidr)}`,
    path: apiPath(PATHS.subnets, scope(inputs)),
    body: subnetTable.body(inputs),
    kind: "subnets",
    recordPath: (id: string) => one(inputs, id),
  };
  return createViaTask(what(inputs), inputs, call, (record, taskIds) => subnetTable.outputs(inputs, record, taskIds));
}

/** How long a create whose answer was lost keeps looking for the subnet it may have made. */
const RECOVER_MS = 30_000;
const RECOVER_EVERY_MS = 2_000;

/**
 * After a lost answer (a response timeout, a reset after sending, a gateway's 5xx, a task
 * whose status could not be read): the network's subnet with exactly our CIDR, looked for
 * until it appears or RECOVER_MS pass (its task may still run). Found: the create succeeds
 * with it, so the stack records it and no second one is ever made.
 */
async function findOurs(inputs: Inputs): Promise<pulumi.dynamic.CreateResult | undefined> {
  const want = canonical("cidr", inputs.cidr);
  const until = Date.now() + Math.min(RECOVER_MS, deadlineFor("create", inputs).timeoutSeconds * 1000);
  for (;;) {
    // A list that fails is tried again on the next round (the service may be what lost the answer).
    const subnets = await listAll(apiClient(), apiPath(PATHS.subnets, scope(inputs)), { network_id: String(inputs.networkId) }).catch(
      (err: unknown) => {
        log(`${what(inputs)}: looking for the subnet its create may have made: ${(err as Error).message}`);
        return [];
      },
    );
    const found = subnets.find((s) => canonical("cidr", s.cidr) === want);
    if (found) {
      const id = String(found.id);
      log(
        `${what(inputs)}: the answer to its create was lost, but the network's subnet with cidr ${String(want)} (${id}) is the one it made: recorded`,
      );
      // The record names the task that creates it (`creator_task_id`, also a read-only tag):
      // while it runs the subnet is not done, so wait for it; if it fails or outlasts the
      // deadline, record the subnet as partly created (the next up waits for it).
      const creator = (found.creator_task_id as string | null | undefined) ?? splitTags(found.tags).readOnly[CREATOR_TAG];
      if (!creator) return { id, outs: subnetTable.outputs(inputs, found, []) };
      const { deadline, timeoutSeconds } = deadlineFor("create", inputs);
      try {
        await apiClient().waitForTasks([creator], { deadline, timeoutSeconds, onProgress: progress(what(inputs)) });
      } catch (err) {
        if (!(err instanceof CimsError)) throw err;
        err.taskIds ??= [creator];
        throw partialCreate(what(inputs), id, err, inputs);
      }
      return { id, outs: subnetTable.outputs(inputs, await apiClient().request("GET", one(inputs, id)), [creator]) };
    }
    if (Date.now() + RECOVER_EVERY_MS > until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, RECOVER_EVERY_MS));
  }
}

const owned = ownedRecordMethods({ table: subnetTable, what, one, list: (i) => apiPath(PATHS.subnets, scope(i)) });

export const subnetMethods = { check, diff, create, ...owned };
