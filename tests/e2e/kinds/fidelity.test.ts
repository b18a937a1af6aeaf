// Fidelity to the real service under the real engine, against an emulator that answers as
// the service does, every owned and settings kind in one stack. Subnet and BaremetalImage: tags
// come back as a list with a read-only tag of the service's own, create-only router fields are
// not in records, spellings come back canonical, host routes in the service's order, and an
// IPv6 /64 counts 2^64 addresses. LbPoolSettings and QuotaThreshold: members come back in the
// service's order and spelling, a PATCH that changes nothing answers {"tasks": []}, a health
// monitor is removed with DELETE .../healthmonitor and session persistence with null, and a
// last-sending time with a zone comes back zone-less in UTC. Each fact: create, preview and
// refresh with no changes, then a change, and no diff after it. A pool whose settings already
// hold is adopted with no warning, no write and no task: in process on both faces,
// tests/unit/provider/kinds/adopt-check.test.ts.
import { api, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";
const c = new pulumi.Config();
const team = c.get("team") ?? "net";
const remove = c.getBoolean("remove") ?? false;
const subnet = new cims.Subnet("v6", {
  name: "v6",
  cidr: "2001:DB8:0:0::/64",
  networkId: c.require("networkId").toUpperCase(),
  gatewayIp: "2001:DB8::1",
  dnsNameservers: c.getBoolean("dropDns") ? undefined : ["2001:4860:4860:0:0:0:0:8888"],
  hostRoutes: [
    { destination: "2001:db8:ff::/48", nexthop: "2001:DB8::FE" },
    { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
  ],
  routerIdToConnect: c.require("routerId"),
  tags: { team },
});
const image = new cims.BaremetalImage("img", { name: "img", volumeId: c.require("volumeId").toUpperCase(), tags: { team } });
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
export const subnetId = subnet.id;
export const totalIps = subnet.totalIps;
export const readOnlyTags = subnet.readOnlyTags;
export const tags = subnet.tags;
export const routerIdToConnect = subnet.routerIdToConnect;
export const imageId = image.id;
export const imageReadOnlyTags = image.readOnlyTags;
`;

const stacks = useStacks();

test(
  "records the service re-spells, reorders and tags itself: no diff; a tag change and removals by null land; no diff after",
  async () => {
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: fidelity\nruntime: nodejs\n", "index.ts": PROGRAM },
      config: { networkId: SEED.networkId, routerId: SEED.routerId, volumeId: SEED.volumeId, poolId: SEED.poolId },
    });
    const { stack, emulator } = env;
    const pool = async () => (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
    await stack.up();
    const out = await stack.outputs();
    const [subnet] = emulator.store.list("subnets");
    const [image] = emulator.store.list("images");
    // What the service holds: canonical, sorted, tags as a list with its own read-only tag, no router fields.
    expect(subnet).toMatchObject({
      cidr: "2001:db8::/64",
      gateway_ip: "2001:db8::1",
      host_routes: [
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
        { destination: "2001:db8:ff::/48", nexthop: "2001:db8::fe" },
      ],
      has_router: false,
      tags: [
        { key: "team", value: "net", read_only: false },
        { key: "creator_task_id", value: expect.any(String), read_only: true },
      ],
    });
    expect(subnet).not.toHaveProperty("router_id_to_connect");
    // What the stack shows: the read-only tag apart from the user's, the router as given, the exact count.
    expect(out).toMatchObject({
      totalIps: "18446744073709551616",
      tags: { team: "net" },
      readOnlyTags: { creator_task_id: subnet.creator_task_id },
      routerIdToConnect: SEED.routerId,
      imageReadOnlyTags: { creator_task_id: image.creator_task_id },
    });
    expect((await pool()).members.map((m: { address: string }) => m.address)).toEqual(["10.0.0.10", "2001:db8::a"]);
    expect((await pool()).healthmonitor).toMatchObject({ type: "HTTP", url_path: "/healthz" });
    expect((await api(env, "GET", "/cloud/v2/client_quotas/1/notification_threshold")).body.last_sending).toBe("2026-05-23T05:07:31");

    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);
    await stack.preview(["--expect-no-changes"]);
    expect((await stack.outputs()).routerIdToConnect).toBe(SEED.routerId); // kept across refresh

    // A tag change: one PATCH per resource, of the users' tag only; the read-only tag stays.
    // The health monitor and session persistence set to null: removed, by DELETE and in the PATCH.
    emulator.metrics.reset();
    await stack.setConfigs({ team: "platform", remove: "true" });
    const diff = await stack.preview(["--diff"]);
    expect(diff.stdout).toMatch(/team\s*: "net" => "platform"/);
    expect(diff.stdout).not.toMatch(/creator_task_id\s*:.*=>/);
    expect(diff.stdout).toMatch(/~ pulumi-nodejs:dynamic\/cims:LbPoolSettings: \(update\)/);
    expect(diff.stdout).toMatch(/- healthmonitor\s*: \{/);
    expect(diff.stdout).toMatch(/- sessionPersistence\s*: \{/);
    await stack.up();
    expect(writes(env).sort()).toEqual([
      "DELETE /cloud/v1/lbpools/:project_id/:region_id/:pool_id/healthmonitor 204 x1",
      "PATCH /cloud/v1/images/:project_id/:region_id/:image_id 200 x1",
      "PATCH /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200 x1",
      "PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1",
    ]);
    expect(emulator.store.list("subnets")[0].tags).toEqual([
      { key: "team", value: "platform", read_only: false },
      { key: "creator_task_id", value: subnet.creator_task_id, read_only: true },
    ]);
    expect(await pool()).toMatchObject({ healthmonitor: null, session_persistence: null });
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);

    // Removing an optional argument means "stop managing it": the preview says so, and the
    // service keeps its value.
    await stack.setConfig("dropDns", "true");
    const dropped = await stack.preview(["--expect-no-changes"]);
    expect(dropped.stdout).toMatch(
      /Subnet "v6": dnsNameservers removed from the program: the service keeps the current value and the stack stops managing it/,
    );
    await stack.up();
    expect((await api(env, "GET", `/cloud/v1/subnets/1/1/${String(out.subnetId)}`)).body.dns_nameservers).toEqual(["2001:4860:4860::8888"]);

    await stack.destroy();
    expect(emulator.store.list("subnets")).toHaveLength(0);
    expect(emulator.store.list("images")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);
