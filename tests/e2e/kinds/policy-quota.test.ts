// SnapshotPolicyState and QuotaThreshold under the real engine (both synchronous): create,
// no-op preview, in-place update, replacement, drift via refresh, destroy.
import { api, SEED, stateOf, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

test(
  "SnapshotPolicyState lifecycle",
  async () => {
    const env = await stacks.program("policy", { policyId: SEED.policyId });
    const { stack } = env;
    const policy = (p = "1/1/101") => api(env, "GET", `/cloud/v1/lifecycle_policy/${p}`).then((r) => r.body);
    await stack.up();
    expect(await stack.outputs()).toMatchObject({ id: "101", status: "paused", name: "nightly-snapshots" });
    expect((await policy()).status).toBe("paused");
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("name", "nightly");
    await stack.setConfig("includeVolumes", "true");
    await stack.up();
    expect((await policy()).name).toBe("nightly");
    expect((await stack.outputs()).volumes).toEqual([{ volumeId: SEED.volumeId, volumeName: "golden-root" }]);
    await stack.preview(["--expect-no-changes"]);

    await api(env, "PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "active" });
    await stack.refresh();
    expect((await stateOf(env, "SnapshotPolicyState"))?.status).toBe("active");
    expect((await stack.preview(["--diff"])).stdout).toMatch(/~ status\s*: "active" => "paused"/);
    await stack.up();
    expect((await policy()).status).toBe("paused");

    await stack.setConfig("policyId", "202");
    await stack.setConfig("policyProject", "2");
    await stack.setConfig("policyRegion", "3");
    await stack.up();
    expect((await stack.outputs()).id).toBe("202");
    expect((await policy("2/3/202")).status).toBe("paused");

    await stack.destroy();
    expect((await policy("2/3/202")).status).toBe("paused"); // left as it is
  },
  E2E_TIMEOUT_MS,
);

test(
  "QuotaThreshold lifecycle, with int64 quota numbers digit-exact",
  async () => {
    const env = await stacks.program("quota", { clientId: SEED.clientId, withMessage: "true" });
    const { stack } = env;
    const setting = (c = "1") => api(env, "GET", `/cloud/v2/client_quotas/${c}/notification_threshold`);
    await stack.up();
    expect(await stack.outputs()).toMatchObject({ id: "1", threshold: 75, keypairLimit: "9223372036854775807" });
    expect(
      JSON.stringify(env.emulator.store.get("client_quotas", 1)?.last_message, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
    ).toContain('"usage":"9223372036854775806"');
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("threshold", "90");
    await stack.up();
    expect((await setting()).body.threshold).toBe(90);
    await stack.preview(["--expect-no-changes"]);

    await api(env, "PUT", "/cloud/v2/client_quotas/1/notification_threshold", { threshold: 61 });
    await stack.refresh();
    expect((await stateOf(env, "QuotaThreshold"))?.threshold).toBe(61);
    expect((await stack.preview(["--diff"])).stdout).toMatch(/~ threshold\s*: 61 => 90/);
    await stack.up();
    expect((await setting()).body.threshold).toBe(90);

    await stack.setConfig("clientId", "77");
    await stack.up();
    expect((await stack.outputs()).id).toBe("77");
    expect((await setting("77")).body.threshold).toBe(90);
    expect((await setting()).body.threshold).toBe(80); // the replaced one was deleted: reset to the default

    await stack.destroy();
    expect((await setting("77")).body.threshold).toBe(80);
  },
  E2E_TIMEOUT_MS,
);
