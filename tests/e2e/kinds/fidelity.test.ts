// Fidelity to the real service under the real engine, against an emulator that answers as
// the service does (its records are the vendor SDK's shapes: tests/conformance), every kind but
// LbPoolMember in one stack. Each fact holds across create, preview and refresh with no
// changes, a change of every kind, and no diff after it.
// - Subnet and BaremetalImage: tags come back as a list with a read-only tag of the service's
//   own (an image's as `tags_v2`), create-only router fields are not in records, spellings come
//   back canonical, host routes in the service's order, an IPv6 /64 counts 2^64 addresses, and
//   `pc` and `i440` are one machine type (no diff, no replace, whichever the program says and
//   the service answers).
// - LbPoolSettings and QuotaThreshold: members come back in the service's order and spelling, a
//   PATCH that changes nothing answers {"tasks": []}, a health monitor is removed with DELETE
//   .../healthmonitor and session persistence with null, and a last-sending time with a zone
//   comes back zone-less in UTC. A health monitor's fields the service fills (max_retries_down,
//   http_method, url_path, expected_codes, http_version, domain_name) and members' fields the
//   program did not set (admin_state_up, backup, provisioning_status) never show as a diff.
// - Fields a record gains that the provider does not know change nothing.
// - Outputs the service changes with no write of the stack's (a subnet's availableIps and
//   updatedAt, a pool's operatingStatus) are read by a refresh and are never a change.
// - Every request body this stack's provider sent is the vendor SDK's request type for its call
//   (tests/conformance/check_requests.py).
// A pool whose settings already hold is adopted with no warning, no write and no task: in
// process on both faces, tests/unit/provider/kinds/adopt-check.test.ts.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { api, requestLogFile, SEED, stateOf, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { runVendorScript } from "../../support/vendor-sdk";

const VOLUME_2 = "2b3c4d5e-6f70-4a81-9b92-a3b4c5d6e7f8";
/** The seed's other pool (project 2, region 3): the vendor-shaped pool's, beside the one of the seeded load balancer. */
const OTHER_POOL = "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70";

/** What the vendor-shaped resources say, rewritten into the program from one step to the next. */
interface Shape {
  subnetName: string;
  subnetTags: string;
  enableDhcp: boolean;
  imageName: string;
  imageTags: string;
  machine: string;
  machine2: string;
  monitor: string;
  members: string;
  policyStatus: string;
  threshold: number;
}

const vendorShaped = (s: Shape) => `
new cims.Subnet("s", {
  name: "${s.subnetName}", cidr: "10.150.0.0/24", networkId: "${SEED.networkId}", enableDhcp: ${s.enableDhcp},
  dnsNameservers: ["8.8.8.8"], hostRoutes: [{ destination: "10.151.0.0/24", nexthop: "10.150.0.254" }], tags: ${s.subnetTags},
});
new cims.BaremetalImage("vimg", {
  name: "${s.imageName}", volumeId: "${SEED.volumeId}", hwMachineType: "${s.machine}", hwFirmwareType: "uefi", tags: ${s.imageTags},
});
new cims.BaremetalImage("vimg2", { name: "vimg2", volumeId: "${VOLUME_2}", hwMachineType: "${s.machine2}" });
new cims.LbPoolSettings("vpool", {
  poolId: "${OTHER_POOL}", projectId: 2, regionId: 3, members: ${s.members}, healthmonitor: ${s.monitor},
  sessionPersistence: { type: "APP_COOKIE", cookieName: "sid" }, timeoutClientData: 30000,
});
new cims.SnapshotPolicyState("policy", { policyId: ${SEED.policyId}, name: "nightly-2", status: "${s.policyStatus}" });
new cims.QuotaThreshold("vquota", {
  clientId: 2, threshold: ${s.threshold}, lastSending: "2026-05-23T07:07:31+02:00",
  lastMessage: { globalQuotas: { keypairCountLimit: { limit: 100, usage: 12 } }, regionalQuotas: [] },
});
`;

const FIRST: Shape = {
  subnetName: "s",
  subnetTags: '{ env: "dev" }',
  enableDhcp: true,
  imageName: "vimg",
  imageTags: '{ env: "dev", team: "a" }',
  machine: "pc",
  machine2: "i440",
  monitor: '{ type: "HTTP", delay: 10, timeout: 5, maxRetries: 3 }',
  members: '[{ address: "10.0.0.10", protocolPort: 8080 }, { address: "10.0.0.12", protocolPort: 8080 }]',
  policyStatus: "paused",
  threshold: 85,
};

const PROGRAM = (shape: Shape) => `
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
  adoptMembers: ["${SEED.keptMemberId}"],
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
${vendorShaped(shape)}`;

const stacks = useStacks();

test(
  "records the service re-spells, reorders and tags itself, or fills and extends: no diff after create, refresh or a change of every kind; removals by null land; pc is i440; requests are the SDK's",
  async () => {
    const requestLog = requestLogFile() ?? path.join(os.tmpdir(), `pulumi-cims-fidelity-${process.pid}.jsonl`);
    const env = await stacks.stack({
      files: { "Pulumi.yaml": "name: fidelity\nruntime: nodejs\n", "index.ts": PROGRAM(FIRST) },
      config: { networkId: SEED.networkId, routerId: SEED.routerId, volumeId: SEED.volumeId, poolId: SEED.poolId },
      emulator: { requestLog },
    });
    const { stack, emulator } = env;
    const { store } = emulator;
    const write = (shape: Shape) => fs.writeFile(`${stack.projectDir}/index.ts`, PROGRAM(shape));
    const volume = { id: VOLUME_2, name: "second-root", size: 10, status: "available", project_id: 1, region_id: 1 };
    expect((await api(env, "POST", "/__emulator/seed", { volumes: [volume] })).status).toBe(204);
    const pool = async () => (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
    const named = (kind: "subnets" | "images", name: string) => store.list(kind).find((r) => r.name === name)!;
    await stack.up();
    const out = await stack.outputs();
    const subnet = named("subnets", "v6");
    const image = named("images", "img");
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
    // The vendor-shaped records: the service's spelling of the program's pc, image tags as tags_v2, a health monitor the service filled.
    const [vimg, vimg2] = [named("images", "vimg"), named("images", "vimg2")];
    expect(vimg.hw_machine_type).toBe("i440");
    expect(vimg.tags_v2).toEqual(expect.arrayContaining([{ key: "team", value: "a", read_only: false }]));
    expect(vimg2.hw_machine_type).toBe("i440");
    expect(store.get("lbpools", OTHER_POOL)!.healthmonitor).toMatchObject({
      max_retries_down: 3,
      http_method: "GET",
      url_path: "/",
      http_version: "1.0",
    });
    await stack.preview(["--expect-no-changes"]);

    // Fields the provider does not know, on every kind of record: nothing to refresh or change.
    for (const [kind, id] of [
      ["subnets", subnet.id],
      ["subnets", named("subnets", "s").id],
      ["images", vimg.id],
      ["lbpools", OTHER_POOL],
    ] as const) {
      store.put(kind, { ...store.get(kind, id)!, vendor_added_field: { nested: [1, 2] } });
    }
    // Outputs the service changes with no write of the stack's (a port taken on the subnet, a
    // health check's verdict): the refresh reads them and neither it nor the preview shows a change.
    store.put("subnets", { ...store.get("subnets", subnet.id)!, available_ips: 1000n, updated_at: "2026-06-01T00:00:00" });
    store.put("lbpools", { ...store.get("lbpools", OTHER_POOL)!, operating_status: "DEGRADED" });
    await stack.refresh(["--expect-no-changes"]);
    expect(await stateOf(env, "Subnet", "v6")).toMatchObject({ availableIps: "1000", updatedAt: "2026-06-01T00:00:00" });
    // The other spelling of the same machine type, in the program: no change.
    await write({ ...FIRST, machine: "i440", machine2: "pc" });
    await stack.preview(["--expect-no-changes"]);
    expect((await stack.outputs()).routerIdToConnect).toBe(SEED.routerId); // kept across refresh

    // A change of every kind, in one up. The IPv6 subnet and its image: a tag change, one PATCH
    // each, of the users' tag only (the read-only tag stays); the pool's health monitor and
    // session persistence set to null: removed, by DELETE and in the PATCH.
    emulator.metrics.reset();
    await stack.setConfigs({ team: "platform", remove: "true" });
    const changed: Shape = {
      subnetName: "s-2",
      subnetTags: '{ env: "prod" }',
      enableDhcp: false,
      imageName: "vimg-2",
      imageTags: '{ env: "prod" }',
      machine: "q35",
      machine2: "pc",
      monitor: '{ type: "HTTP", delay: 20, timeout: 5, maxRetries: 3, httpMethod: "HEAD", urlPath: "/healthz" }',
      members: '[{ address: "10.0.0.10", protocolPort: 8080, weight: 5 }, { address: "10.0.0.13", protocolPort: 8080 }]',
      policyStatus: "active",
      threshold: 90,
    };
    await write(changed);
    // `up --diff` prints each step's diff as `preview --diff` does (the same Diff call, before
    // the step runs): one engine command where a preview and an up were two.
    const up = await stack.up(["--diff"]);
    expect(up.stdout).toMatch(/team\s*: "net" => "platform"/);
    expect(up.stdout).not.toMatch(/creator_task_id\s*:.*=>/);
    expect(up.stdout).toMatch(/~ pulumi-nodejs:dynamic\/cims:LbPoolSettings: \(update\)/);
    expect(up.stdout).toMatch(/- healthmonitor\s*: \{/);
    expect(up.stdout).toMatch(/- sessionPersistence\s*: \{/);
    expect(up.stdout).not.toMatch(/replaced|replacing/);
    // One write per changed resource or member: a PATCH each (the two subnets, the two images
    // whose fields changed, the two pools, the policy, the reweighted member), the removed
    // health monitor's DELETE, the new member's POST and the old one's DELETE, the quota's PUT.
    expect(writes(env).sort()).toEqual([
      "DELETE /cloud/v1/lbpools/:project_id/:region_id/:pool_id/healthmonitor 204 x1",
      "DELETE /cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members/:member_id 200 x1",
      "PATCH /cloud/v1/images/:project_id/:region_id/:image_id 200 x2",
      "PATCH /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200 x2",
      "PATCH /cloud/v1/lifecycle_policy/:project_id/:region_id/:policy_id 200 x1",
      "PATCH /cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members/:member_id 200 x1",
      "PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x2",
      "POST /cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members 200 x1",
      "PUT /cloud/v2/client_quotas/:client_id/notification_threshold 200 x1",
    ]);
    expect(named("subnets", "v6").tags).toEqual([
      { key: "team", value: "platform", read_only: false },
      { key: "creator_task_id", value: subnet.creator_task_id, read_only: true },
    ]);
    expect(await pool()).toMatchObject({ healthmonitor: null, session_persistence: null });
    expect(store.get("images", vimg.id)).toMatchObject({ name: "vimg-2", hw_machine_type: "q35", tags_v2: expect.any(Array) });
    expect(store.get("lbpools", OTHER_POOL)?.healthmonitor).toMatchObject({ delay: 20, http_method: "HEAD", url_path: "/healthz" });
    await stack.preview(["--expect-no-changes"]);
    await stack.refresh(["--expect-no-changes"]);

    // Removing an optional argument means "stop managing it": the up says so (from the check
    // and diff a preview runs: one engine command where a preview and an up were two), changes
    // nothing, and the service keeps its value.
    await stack.setConfig("dropDns", "true");
    const dropped = await stack.up(["--expect-no-changes"]);
    expect(dropped.stdout).toMatch(
      /Subnet "v6": dnsNameservers removed from the program: the service keeps the current value and the stack stops managing it/,
    );
    expect((await api(env, "GET", `/cloud/v1/subnets/1/1/${String(out.subnetId)}`)).body.dns_nameservers).toEqual(["2001:4860:4860::8888"]);

    // No destroy: deleting these kinds, members before their subnets, is lifecycle.test.ts's
    // (and it sends no body for the check below).

    // Every body this provider sent is the vendor SDK's request type for its call.
    expect(emulator.requestLog).toBe(requestLog);
    const checked = await runVendorScript("check_requests.py", [requestLog]);
    expect(checked.stdout.length).toBeGreaterThan(0);
    const report = JSON.parse(checked.stdout) as { checked: Record<string, number>; failures: unknown[] };
    expect(report.failures).toEqual([]);
    expect(Object.keys(report.checked).sort()).toEqual(
      [
        "ImageCreateFromVolumeParams",
        "ImageUpdateParams",
        "MemberCreateParams",
        "MemberUpdateParams",
        "NotificationThresholdUpdateParams",
        "PoolUpdateParams",
        "SnapshotScheduleUpdateParams",
        "SubnetCreateParams",
        "SubnetUpdateParams",
      ].sort(),
    );
    expect(checked.code).toBe(0);
  },
  E2E_TIMEOUT_MS,
);
