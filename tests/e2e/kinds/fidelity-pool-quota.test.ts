// Fidelity to the real service, LbPoolSettings and QuotaThreshold: members come
// back in the service's order and spelling, a PATCH that changes nothing answers
// {"tasks": []}, a health monitor is removed with DELETE .../healthmonitor and session
// persistence with null, and a last-sending time with a zone comes back zone-less in UTC.
// Each: create, preview and refresh with no changes, then the change, and no diff after. A
// pool whose settings already hold is adopted with no warning, no write and no task: in
// process on both faces, tests/unit/provider/kinds/adopt-check.test.ts.
import { api, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";
const c = new pulumi.Config();
const remove = c.getBoolean("remove") ?? false;
new cims.LbPoolSettings("pool", {
  poolId: c.require("poolId"),
  name: "web-pool", // what the pool is already called: the create's PATCH changes nothing there
  members: [
    { address: "2001:DB8:0::A", protocolPort: 80 },
    { address: "10.0.0.10", protocolPort: 8080 },
  ],
  healthmonitor: remove ? null : { type: "HTTP", delay: 5, timeout: 5, maxRetries: 3, urlPath: "/healthz" },
  sessionPersistence: remove ? null : { type: "HTTP_COOKIE" },
});
new cims.QuotaThreshold("quota", { clientId: 1, threshold: 75, lastSending: "2026-05-23T07:07:31+02:00" });
`;

const stacks = useStacks();

test(
  "pool members in the service's order, health monitor and session persistence removed by null; a zoned lastSending settles",
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: fidelity-pool\nruntime: nodejs\n", "index.ts": PROGRAM },
      config: { poolId: SEED.poolId },
    });
    const { stack } = env;
    const pool = async () => (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
    await stack.up();
    expect((await pool()).members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.10", "2001:db8::a"]);
    expect((await pool()).healthmonitor).toMatchObject({ type: "HTTP", url_path: "/healthz" });
    expect((await api(env, "GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.last_sending).toBe("2026-05-23T05:07:31");
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("remove", "true");
    const diff = await stack.preview(["--diff"]);
    expect(diff.stdout).toMatch(/~ pulumi-nodejs:dynamic\/cims:LbPoolSettings: \(update\)/);
    expect(diff.stdout).toMatch(/- healthmonitor\s*: \{/);
    expect(diff.stdout).toMatch(/- sessionPersistence\s*: \{/);
    env.emulator.metrics.reset();
    await stack.up();
    expect(env.emulator.metrics.snapshot().requests).toMatchObject({
      "DELETE /cloud/v1/lbpools/:project_id/:region_id/:pool_id/healthmonitor 204": 1,
      "PATCH /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200": 1,
    });
    expect(await pool()).toMatchObject({ healthmonitor: null, session_persistence: null });
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);
