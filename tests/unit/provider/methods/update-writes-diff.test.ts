// An update writes what changed between the state (olds) and the program (news), the diff
// the preview showed, and nothing else, against an in-process emulator whose request log
// holds every body sent. Fields changed outside Pulumi since the last refresh stay as the
// service holds them (and out of the state, so the next diff is empty); tags go as a merge
// patch of the keys that changed, so a key added outside Pulumi survives a change of
// another. After a refresh the diff shows the drift and the update sets it back. What the
// engine records of such an update and the previews after it, on both faces:
// up-after-unrefreshed-drift.test.ts; under the real engine, the lifecycle model.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { closeAllPools } from "../../../../provider/client/transport";
import { lbPoolSettingsMethods } from "../../../../provider/kinds/lb-pool-settings";
import { quotaThresholdMethods } from "../../../../provider/kinds/quota-threshold";
import { snapshotPolicyStateMethods } from "../../../../provider/kinds/snapshot-policy-state";
import { Subnet } from "../../../../provider/kinds/subnet";
import { tagPatch } from "../../../../api/wire";
import { SEED, SEED_FILE } from "../../../support/cims";
import { POOL_SETTINGS_INPUTS } from "../../../support/faults";
import { configureProvider } from "../../../support/provider-config";

const KEY = "unit-update-key-0123456789";
let emu: RunningEmulator;
let log: string;

beforeEach(async () => {
  log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "update-writes-")), "requests.jsonl");
  emu = await startEmulator({ apiKey: KEY, seed: SEED_FILE, taskDurationMs: 0, requestLog: log });
  configureProvider(emu.url, { "cims:apiKey": KEY, "cims:projectId": "1", "cims:regionId": "1", "cims:coalesceReads": "false" });
});
afterEach(async () => {
  await closeAllPools();
  await emu.close();
});

/** Calls the emulator as someone outside Pulumi would. */
async function outside(method: string, p: string, body: unknown): Promise<void> {
  const res = await fetch(`${emu.url}${p}`, {
    method,
    headers: { authorization: `apikey ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** The bodies of the writes (PATCH, PUT) the provider sent since the log had `from` lines, with their method. */
function writesSince(from: number): Array<[string, unknown]> {
  const lines = fs.readFileSync(log, "utf8").trim().split("\n").slice(from);
  return lines
    .map((l) => JSON.parse(l) as { method: string; body: unknown })
    .filter((r) => r.method === "PATCH" || r.method === "PUT")
    .map((r) => [r.method, r.body]);
}
const logLength = () => fs.readFileSync(log, "utf8").trim().split("\n").length;

/** The users' tags of a record, key -> value. */
const userTags = (record: Record<string, unknown> | undefined) =>
  Object.fromEntries(
    ((record?.tags ?? []) as Array<{ key: string; value: string; read_only: boolean }>)
      .filter((t) => !t.read_only)
      .map((t) => [t.key, t.value]),
  );

test("tags as a merge patch: changed and new keys set, removed keys null, keys alike or never declared not named", () => {
  expect(tagPatch({ team: "a", env: "dev", gone: "x" }, { team: "b", env: "dev", added: "y" })).toEqual({
    team: "b",
    added: "y",
    gone: null,
  });
  expect(tagPatch({ team: "a" }, { team: "a" })).toEqual({});
  // An older state holding the record's list: its users' tags are what was set.
  expect(tagPatch([{ key: "env", value: "dev", read_only: false }], { env: "dev", team: "a" })).toEqual({ team: "a" });
});

describe("a Subnet update", () => {
  const program = { name: "app", cidr: "10.61.0.0/24", networkId: SEED.networkId, tags: { team: "a", env: "dev" } };

  async function created() {
    const inputs = (await Subnet.methods.check({}, program)).inputs;
    const { id, outs } = await Subnet.methods.create(inputs);
    // Outside Pulumi: a tag added, another changed, DHCP turned off.
    const p = `/cloud/v1/subnets/1/1/${id}`;
    await outside("PATCH", p, { tags: { "cost-center": "cc-1", env: "prod" }, enable_dhcp: false });
    return { id, inputs, outs };
  }

  test("sends only the renamed name and the changed tag key; what drifted stays, and the next diff is empty", async () => {
    const { id, inputs, outs } = await created();
    const news = (await Subnet.methods.check(inputs, { ...program, name: "app-2", tags: { team: "b", env: "dev" } })).inputs;
    const from = logLength();
    const updated = await Subnet.methods.update(id, outs, news);

    expect(writesSince(from)).toEqual([["PATCH", { name: "app-2", tags: { team: "b" } }]]);
    const record = emu.store.get("subnets", id);
    expect({ name: record?.name, dhcp: record?.enable_dhcp, tags: userTags(record) }).toEqual({
      name: "app-2",
      dhcp: false,
      tags: { team: "b", env: "prod", "cost-center": "cc-1" },
    });
    // The state keeps what it knew of the fields the update did not write: no diff until a refresh.
    expect({ tags: updated.outs?.tags, dhcp: updated.outs?.enableDhcp }).toEqual({ tags: { team: "b", env: "dev" }, dhcp: true });
    expect((await Subnet.methods.diff(id, updated.outs ?? {}, news)).changes).toBe(false);
  });

  test("with tags under ignoreChanges (the engine gives the state's tags), a rename sends the name alone", async () => {
    const { id, inputs, outs } = await created();
    const news = (await Subnet.methods.check(inputs, { ...program, name: "app-2", tags: inputs.tags })).inputs;
    const from = logLength();
    await Subnet.methods.update(id, outs, news);

    expect(writesSince(from)).toEqual([["PATCH", { name: "app-2" }]]);
    expect(userTags(emu.store.get("subnets", id))).toEqual({ team: "a", env: "prod", "cost-center": "cc-1" });
  });

  test("after a refresh, the diff shows the drift and the update sets it back, removing the tag the program never had", async () => {
    const { id, inputs, outs } = await created();
    const refreshed = await Subnet.methods.read(id, outs);
    const props = refreshed.props ?? {};
    const diff = await Subnet.methods.diff(id, props, inputs);
    expect(diff.diffs.sort()).toEqual(["enableDhcp", "tags"]);
    const from = logLength();
    await Subnet.methods.update(id, props, inputs);

    expect(writesSince(from)).toEqual([["PATCH", { enable_dhcp: true, tags: { env: "dev", "cost-center": null } }]]);
    const record = emu.store.get("subnets", id);
    expect({ dhcp: record?.enable_dhcp, tags: userTags(record) }).toEqual({ dhcp: true, tags: { team: "a", env: "dev" } });
  });
});

test("a SnapshotPolicyState update of the name leaves a status changed outside Pulumi; after a refresh it is set back", async () => {
  const policyPath = `/cloud/v1/lifecycle_policy/1/1/${SEED.policyId}`;
  const program = { policyId: Number(SEED.policyId), name: "nightly", status: "paused" };
  const inputs = (await snapshotPolicyStateMethods.check({}, program)).inputs;
  const { id, outs } = await snapshotPolicyStateMethods.create(inputs);
  await outside("PATCH", policyPath, { status: "active" });
  const news = (await snapshotPolicyStateMethods.check(inputs, { ...program, name: "weekly" })).inputs;
  let from = logLength();
  const updated = await snapshotPolicyStateMethods.update(id, outs, news);

  expect(writesSince(from)).toEqual([["PATCH", { name: "weekly" }]]);
  const policy = () => emu.store.get("lifecycle_policies", Number(SEED.policyId));
  expect([policy()?.name, policy()?.status]).toEqual(["weekly", "active"]);
  expect((await snapshotPolicyStateMethods.diff(id, updated.outs ?? {}, news)).changes).toBe(false);

  const refreshed = (await snapshotPolicyStateMethods.read(id, updated.outs ?? {})).props ?? {};
  expect((await snapshotPolicyStateMethods.diff(id, refreshed, news)).diffs).toEqual(["status"]);
  from = logLength();
  await snapshotPolicyStateMethods.update(id, refreshed, news);
  expect(writesSince(from)).toEqual([["PATCH", { status: "paused" }]]);
  expect(policy()?.status).toBe("paused");
});

test("an LbPoolSettings update after unrefreshed drift of its name and members writes only the changed setting: the drift stays, and so does another's member", async () => {
  const poolPath = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
  const program = POOL_SETTINGS_INPUTS;
  const inputs = (await lbPoolSettingsMethods.check({}, program)).inputs;
  const { id, outs } = await lbPoolSettingsMethods.create(inputs);
  await outside("PATCH", poolPath, {
    name: "renamed-by-hand",
    members: [
      { address: "10.0.0.10", protocol_port: 8080 },
      { address: "10.0.0.99", protocol_port: 8080 },
    ],
  });
  const news = (await lbPoolSettingsMethods.check(inputs, { ...program, lbAlgorithm: "LEAST_CONNECTIONS" })).inputs;
  const from = logLength();
  const updated = await lbPoolSettingsMethods.update(id, outs, news);

  expect(writesSince(from)).toEqual([["PATCH", { lb_algorithm: "LEAST_CONNECTIONS" }]]);
  const pool = emu.store.get("lbpools", SEED.poolId);
  expect({
    name: pool?.name,
    lbAlgorithm: pool?.lb_algorithm,
    members: (pool?.members as Array<{ address: string }>).map((m) => m.address),
  }).toEqual({ name: "renamed-by-hand", lbAlgorithm: "LEAST_CONNECTIONS", members: ["10.0.0.10", "10.0.0.99"] });
  expect((await lbPoolSettingsMethods.diff(id, updated.outs ?? {}, news)).changes).toBe(false);
});

test("a QuotaThreshold update of lastSending sends back the threshold the service holds (the PUT requires one), not the state's", async () => {
  const quotaPath = `/cloud/v2/client_quotas/${SEED.clientId}/notification_threshold`;
  const program = { clientId: Number(SEED.clientId), threshold: 75, lastSending: null };
  const inputs = (await quotaThresholdMethods.check({}, program)).inputs;
  const { id, outs } = await quotaThresholdMethods.create(inputs);
  await outside("PUT", quotaPath, { threshold: 90 });
  const news = (await quotaThresholdMethods.check(inputs, { ...program, lastSending: "2026-06-01T00:00:00" })).inputs;
  const from = logLength();
  const updated = await quotaThresholdMethods.update(id, outs, news);

  expect(writesSince(from)).toEqual([["PUT", { threshold: 90, last_sending: "2026-06-01T00:00:00" }]]);
  expect(String(emu.store.get("client_quotas", Number(SEED.clientId))?.threshold)).toBe("90");
  expect(updated.outs?.threshold).toBe(75);
  expect((await quotaThresholdMethods.diff(id, updated.outs ?? {}, news)).changes).toBe(false);
});
