// A settings kind (a record that exists anyway) reads and writes its record at the path its
// descriptor derives from the contract (recordPath), by the id its identity input holds: a
// pool by poolId, a policy by policyId, a quota setting by clientId. Each up here changes one
// field and the service's record, read over HTTP, holds it; refresh reads it back.
import { api, SEED } from "../../../support/cims";
import { POOL_SETTINGS_INPUTS } from "../../../support/faults";
import { withEmulatedState } from "../faults/matrix";

test("LbPoolSettings: the pool of its poolId is the one written and read", () =>
  withEmulatedState("LbPoolSettings", "dynamic", async (env, state) => {
    await state.up("pool", { ...POOL_SETTINGS_INPUTS, timeoutClientData: 4321 });
    expect((await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body.timeout_client_data).toBe(4321);
    await state.refresh("pool");
    expect(state.resources.get("pool")?.outs.timeoutClientData).toBe(4321);
  }));

test("SnapshotPolicyState: the policy of its policyId is the one written and read", () =>
  withEmulatedState("SnapshotPolicyState", "dynamic", async (env, state) => {
    await state.up("policy", { policyId: Number(SEED.policyId), name: "renamed-by-stack" });
    expect((await api(env, "GET", `/cloud/v1/lifecycle_policy/1/1/${SEED.policyId}`)).body.name).toBe("renamed-by-stack");
    await state.refresh("policy");
    expect(state.resources.get("policy")?.outs.name).toBe("renamed-by-stack");
  }));

test("QuotaThreshold: the setting of its clientId is the one written and read", () =>
  withEmulatedState("QuotaThreshold", "dynamic", async (env, state) => {
    await state.up("quota", { clientId: Number(SEED.clientId), threshold: 77 });
    expect((await api(env, "GET", `/cloud/v2/client_quotas/${SEED.clientId}/notification_threshold`)).body.threshold).toBe(77);
    await state.refresh("quota");
    expect(state.resources.get("quota")?.outs.threshold).toBe(77);
  }));
