// LbPoolSettings's provider methods: chosen settings of an existing load balancer pool with
// PATCH lbpools (asynchronous). Only the fields given are managed; members are matched by
// address+port (the service keeps those as they are, without re-creation). Destroy leaves
// the pool as it is: the stack stops managing it.
import type * as pulumi from "@pulumi/pulumi";
import { POOL } from "../../api/contract";
import { memberKey } from "../../api/members";
import { canonical } from "../../api/net";
import { PATHS } from "../../api/paths";
import { CimsError, NotFoundError } from "../client/errors";
import { apiPath } from "../client/path";
import { callAndWait, readOrGone, withContext } from "./calls";
import { apiClient, log, scopeDefaults } from "./context";
import { mayHaveActed } from "./create";
import type { Descriptor, Scoped } from "./descriptor";
import { changedFields, sameValue } from "./diff";
import { differences } from "./drift";
import { PartialCreateError } from "./errors";
import { type Inputs, positiveInteger, timeouts, uuid4 } from "./schema";
import { resourceTable } from "./table";
import { camelKeys, plainRecord, snakeKeys } from "./wire";
import { recordsIn } from "./values";
import { messageOf } from "./values";

/** A pool's chosen settings: its inputs once checked. */
type PoolInputs = Scoped<{ poolId: string; members?: Member[] | null }>;

export const poolDescriptor: Descriptor = {
  kind: "LbPoolSettings",
  contract: POOL,
  extra: { poolId: uuid4, projectId: positiveInteger.optional(), regionId: positiveInteger.optional(), timeouts: timeouts.optional() },
  replaces: ["poolId", "projectId", "regionId"],
  scoped: true,
  outputsOnlyGiven: true,
  label: (i) => `LbPoolSettings of pool ${String(i.poolId)}`,
  recordPath: (s, id) => apiPath(PATHS.lbpool, { project_id: s.projectId, region_id: s.regionId, pool_id: id }),
  // Every setting the pool holds (members by their settings only), so all are managed.
  import: {
    nouns: ["pool", "pools"],
    prefix: "pool",
    id: (r) => String(r.id).toLowerCase(),
    name: (r) => r.name,
    args: (r, fields, scope) => ({ poolId: String(r.id), ...scope, ...fields }),
  },
};
export const poolTable = resourceTable(poolDescriptor);

type Member = Record<string, unknown>;
const keyOf = (m: Member) => memberKey(m.address, m.protocolPort);

const label = poolDescriptor.label;
const pathParams = (i: PoolInputs) => ({ project_id: i.projectId, region_id: i.regionId, pool_id: i.poolId });
const path = (i: PoolInputs) => apiPath(PATHS.lbpool, pathParams(i));

/**
 * Members the service would keep unchanged although the user changed their weight or subnet:
 * it keeps a member with the same address and port "as it is", so such a change never lands
 * and the diff would never clear.
 */
export function membersToRecreate(current: Member[], wanted: Member[]): Member[] {
  const byKey = new Map(current.map((m) => [keyOf(m), m]));
  return wanted.filter((m) => {
    const old = byKey.get(keyOf(m));
    return (
      old !== undefined &&
      ["weight", "subnetId"].some((f) => m[f] !== undefined && !sameValue(canonical("uuid4", old[f]), canonical("uuid4", m[f])))
    );
  });
}

/** The PATCH body for these fields: nested objects and members whole, snake_case. */
export function patchBody(inputs: Inputs, fields: readonly string[]): Record<string, unknown> {
  return poolTable.patch({}, inputs, fields);
}

/**
 * PATCHes these fields (and DELETEs a health monitor set to null), waits, and reads the pool.
 * `current`: the pool as just read, if it was. `done.sent` counts the writes sent and
 * `done.writes` those the service accepted, so a failed create knows whether it may have
 * changed anything.
 */
async function apply(
  inputs: PoolInputs,
  fields: readonly string[],
  op: "create" | "update",
  done = { sent: 0, writes: 0 },
  current?: Record<string, unknown>,
): Promise<Inputs> {
  const what = label(inputs);
  const body = patchBody(inputs, fields);
  const taskIds: string[] = [];
  // healthmonitor: null is a DELETE of its own (the PATCH takes an object only); gone already is fine.
  for (const field of poolTable.removals(inputs, fields)) {
    done.sent++;
    await apiClient()
      .request("DELETE", apiPath(PATHS.lbpoolHealthmonitor, pathParams(inputs)))
      .catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
    done.writes++;
    log(`${what}: ${field} removed`);
  }
  if (Array.isArray(body.members)) {
    // Two steps for changed members: PATCH without them (the service drops them), then with
    // them (created anew with the wanted settings). Only those members see a gap.
    const pool = current ?? (await apiClient().request<Record<string, unknown>>("GET", path(inputs)));
    const wanted = inputs.members ?? [];
    const stale = membersToRecreate(recordsIn(camelKeys(pool.members ?? [])), wanted);
    if (stale.length > 0) {
      const keys = new Set(stale.map(keyOf));
      log(
        `${what}: ${[...keys].join(", ")} changed weight or subnetId; the service keeps same-address members as they are, so they are removed and added back`,
      );
      const without = wanted.filter((m) => !keys.has(keyOf(m)));
      done.sent++;
      taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body: { members: snakeKeys(without) } })).taskIds);
      done.writes++;
    }
  }
  if (Object.keys(body).length > 0) {
    done.sent++;
    taskIds.push(...(await callAndWait("PATCH", path(inputs), what, op, inputs, { body })).taskIds);
    done.writes++;
  }
  const record = done.writes === 0 && current ? current : await apiClient().request<Record<string, unknown>>("GET", path(inputs));
  return poolTable.outputs(inputs, record, taskIds);
}

async function check(olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  return poolTable.check(olds, news, scopeDefaults);
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  const note = poolTable.unmanagedNote(olds, news);
  if (note) log(note);
  return poolTable.diff(olds, news);
}

async function create(inputs: PoolInputs): Promise<pulumi.dynamic.CreateResult> {
  const done = { sent: 0, writes: 0 };
  try {
    return await withContext(label(inputs), async () => {
      // Adopting the pool: read it, and write only the given fields it does not hold already
      // (none: no request but this GET, no task).
      const current = await apiClient().request<Record<string, unknown>>("GET", path(inputs));
      const { updates } = differences(poolTable, current, inputs);
      return { id: String(inputs.poolId), outs: await apply(inputs, updates, "create", done, current) };
    });
  } catch (err) {
    // Nothing reached the pool (no write was sent: a read failed; or the service refused the
    // first write: bad input, no such pool, no access): fail plainly. Otherwise the pool may
    // be half-set (a write accepted, or one whose answer was lost or whose task failed):
    // record it with its identity only (and the provider, which refresh and destroy load), so
    // the next `up` sees every given field as changed and applies them all again.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err; // as withContext saw it
    const started = cause instanceof CimsError && (cause.taskIds?.length ?? 0) > 0; // a write's task ran
    if (done.sent === 0 || (done.writes === 0 && !started && !mayHaveActed(cause))) throw err;
    throw new PartialCreateError(messageOf(err), String(inputs.poolId), identityOnly(inputs));
  }
}

/** What a half-applied create records: no managed field, so none can look already applied. */
export function identityOnly(inputs: Inputs): Inputs {
  const { __provider, poolId, projectId, regionId, timeouts } = inputs;
  return plainRecord({ __provider, poolId, projectId, regionId, timeouts });
}

/**
 * PATCHes the fields that changed, and those the pool no longer holds as the program says
 * (changed outside Pulumi since the last refresh): after `up` the pool holds the program's
 * values and the next preview is clean. The pool is read first; that read also serves the
 * member comparison.
 */
async function update(_id: string, olds: PoolInputs, news: PoolInputs): Promise<pulumi.dynamic.UpdateResult> {
  const changed = changedFields(olds, news, poolTable.rules).map((r) => r.name);
  return withContext(label(news), async () => {
    const current = await apiClient().request<Record<string, unknown>>("GET", path(news));
    const drifted = differences(poolTable, current, news).updates.filter((f) => !changed.includes(f));
    if (drifted.length > 0) log(`${label(news)}: ${drifted.join(", ")} changed outside Pulumi: set back to the program's value`);
    return { outs: await apply(news, [...changed, ...drifted], "update", undefined, current) };
  });
}

async function remove(_id: string, props: PoolInputs): Promise<void> {
  log(`${label(props)}: left as it is (the stack no longer manages it)`);
}

async function read(id: string, props: PoolInputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), (record) => poolTable.fromRecord(record, props), poolTable.rules, { includeAuto: true });
}

export const lbPoolSettingsMethods = { check, diff, create, update, read, delete: remove };
