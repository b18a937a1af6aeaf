// QuotaThreshold's provider methods: a client's quota notification threshold, PUT
// notification_threshold (synchronous upsert); destroy DELETEs it (the service resets to
// its default, 80). Quota limits and usages are int64: exact decimal strings on the Pulumi
// side, exact integers on the wire (bigint through lossless JSON), never a rounded number.
import type * as pulumi from "@pulumi/pulumi";
import { QuotaThreshold as contract } from "../../api/contract/quota-threshold";
import { NotFoundError } from "../client/errors";
import { readOrGone, withContext } from "../methods/calls";
import { apiClient, log } from "../methods/context";
import type { Descriptor } from "../methods/descriptor";
import type { KindEntry } from "../methods/kind-entry";
import { changedFields, type KindDiff } from "../methods/diff";
import { differences } from "../methods/drift";
import { keepUnknownMembers } from "../../api/wire";
import { describeSettings } from "../methods/describe";
import type { Inputs } from "../methods/schema";
import { resourceTable } from "../methods/table";
import { runMemory } from "../methods/run-memory";
import { quotaThresholdExample } from "./quota-threshold.example";
import type { WithExample } from "./program-model";

/** A client's setting: its inputs once checked. */
type QuotaInputs = Inputs & { clientId: number; threshold: number };

/** A setting has no `id`: its client's id names it. */
const QUOTA_KEY = "client_id";

export const quotaDescriptor: Descriptor = describeSettings({
  contract,
  label: (i) => `QuotaThreshold of client ${String(i.clientId)}`,
  recordKey: QUOTA_KEY,
  // The threshold only: `lastMessage` and `lastSending` are what the service records of its
  // own e-mails; written into the program they would be pinned (a newer `last_sending`
  // reverted by the next `up`). A user who means to manage them writes them.
  import: {
    nouns: ["quota threshold", "quota thresholds"],
    prefix: "quota-threshold",
    named: {
      flag: "client",
      value: "<id>",
      repeatable: false,
      what: "quota threshold",
      help: "the client whose quota notification threshold to import, as QuotaThreshold",
      missing: (id) => `client ${id}: has no quota notification setting (or no such client)`,
    },
    id: (r) => Number(r.client_id),
    name: (r) => `client-${String(r.client_id)}`,
    args: (r, fields) => ({ clientId: Number(r.client_id), ...fields }),
    only: ["threshold"],
  },
});
export const quotaTable = resourceTable(quotaDescriptor);

const path = (i: QuotaInputs) => quotaDescriptor.recordPath(i, String(i.clientId));
const label = quotaDescriptor.label;

/**
 * Clients whose setting this provider process wrote. A replacement (`up --replace`), a
 * rename without an alias or a move into a component makes Pulumi create the new resource
 * (PUT) before it deletes the old one, in the same run: that delete must not reset what the
 * new one just set.
 */
const writtenThisRun = runMemory(new Set<string>());

/** Every field of the setting: what a create writes when the service's differs. */
const ALL_FIELDS = Object.keys(contract.fields);

/**
 * PUT these fields of the program's setting (`written`); a field the PUT leaves out keeps
 * what the service holds. The PUT requires a threshold: when the program's is not written,
 * the one the service holds (`held`: the setting as read) is sent back as it is. A message
 * keeps the quota members the service holds that the contract does not know, verbatim: the
 * program cannot name them, so it cannot mean to erase them.
 */
async function put(inputs: QuotaInputs, written: readonly string[], held?: Record<string, unknown>): Promise<Record<string, unknown>> {
  writtenThisRun.add(String(inputs.clientId));
  const body = quotaTable.patch({}, inputs, written);
  if (body.threshold === undefined || body.last_message !== undefined) held ??= await current(inputs);
  body.threshold ??= held?.threshold ?? inputs.threshold;
  if (body.last_message !== undefined) {
    body.last_message = keepUnknownMembers(body.last_message, held?.last_message, contract.fields.lastMessage.type);
  }
  return apiClient().record("PUT", path(inputs), { body }, QUOTA_KEY);
}

/** The client's setting, or undefined when it has none. */
function current(inputs: QuotaInputs): Promise<Record<string, unknown> | undefined> {
  return apiClient()
    .record("GET", path(inputs), {}, QUOTA_KEY)
    .catch((err: unknown) => {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    });
}

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  return quotaTable.check(olds, news);
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<KindDiff> {
  const note = quotaTable.unmanagedNote(olds, news);
  if (note) log(note);
  return quotaTable.diff(olds, news);
}

async function create(inputs: QuotaInputs): Promise<pulumi.dynamic.CreateResult> {
  // Adopting the client's setting: read it, and PUT only if it differs from the program (a
  // client with no setting yet gets one). Either way the setting is this resource's now.
  return withContext(label(inputs), async () => {
    writtenThisRun.add(String(inputs.clientId));
    const held = await current(inputs);
    const same = held !== undefined && differences(quotaTable, held, inputs).updates.length === 0;
    return { id: String(inputs.clientId), outs: quotaTable.outputs(inputs, same ? held : await put(inputs, ALL_FIELDS, held), []) };
  });
}

/**
 * PUTs the fields that changed between the state and the program: the diff the preview
 * showed. One changed outside Pulumi since the last refresh is not written (nor one under
 * `ignoreChanges`): a refresh shows it, and the `up` after it sets it back.
 */
async function update(_id: string, olds: QuotaInputs, news: QuotaInputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, quotaTable.rules).map((r) => r.name);
  return withContext(label(news), async () => {
    const written = changed.filter((name) => ALL_FIELDS.includes(name));
    const record = written.length > 0 ? await put(news, written) : await apiClient().record("GET", path(news), {}, QUOTA_KEY);
    return { outs: quotaTable.updated(quotaTable.outputs(news, record, []), olds, news, written) };
  });
}

/**
 * DELETE resets the client's setting to the service's default (80), but only a setting this
 * resource made: when another resource set the client's threshold in this run, or the
 * service holds another threshold than this one set, the setting is left as it is.
 */
async function remove(_id: string, props: QuotaInputs): Promise<void> {
  const what = label(props);
  await withContext(what, async () => {
    if (writtenThisRun.has(String(props.clientId))) {
      log(`${what}: left as it is: another QuotaThreshold of this client set it in this run (a replacement or a rename)`);
      return;
    }
    try {
      const current = await apiClient().record("GET", path(props), {}, QUOTA_KEY);
      if (String(current.threshold) !== String(props.threshold)) {
        log(
          `${what}: left as it is: the service holds threshold ${String(current.threshold)}, not the ${String(props.threshold)} this resource set`,
        );
        return;
      }
      await apiClient().request("DELETE", path(props));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  });
}

async function read(id: string, props: QuotaInputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), (record) => quotaTable.fromRecord(record), quotaTable.rules, {
    get: () => apiClient().record("GET", path(props), {}, QUOTA_KEY),
  });
}

export const quotaThresholdMethods = { check, diff, create, update, read, delete: remove };

/** QuotaThreshold: its descriptor, field table and methods, as the registry (./index.ts) lists it. */
export const QuotaThreshold: KindEntry & WithExample = {
  example: quotaThresholdExample,
  descriptor: quotaDescriptor,
  table: quotaTable,
  methods: quotaThresholdMethods,
};
