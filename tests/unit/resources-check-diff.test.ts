// The five resources without the engine: check() rules and defaults, diff() decisions,
// and the camelCase <-> wire mappings both ways.
import { parseJson, stringifyJson } from "../../api/json";
import { baremetalImageMethods, imageTable } from "../../provider/methods/baremetal-image";
import { setConfig } from "../../provider/methods/context";
import { identityOnly, lbPoolSettingsMethods, membersToRecreate, patchBody, poolTable } from "../../provider/methods/lb-pool-settings";
import { quotaTable, quotaThresholdMethods } from "../../provider/methods/quota-threshold";
import { UNKNOWN } from "../../provider/methods/schema";
import { policyTable, snapshotPolicyStateMethods } from "../../provider/methods/snapshot-policy-state";
import { subnetMethods, subnetTable } from "../../provider/methods/subnet";
import { sameMembers } from "../../provider/methods/table";
import { camelKeys, plain } from "../../provider/methods/wire";

const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
const VOL = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
const SUB = "1b2c3d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d";

beforeAll(() => setConfig((key) => ({ "cims:projectId": "1", "cims:regionId": "2" })[key]));

const props = (failures: Array<{ property: string }> | undefined) => (failures ?? []).map((f) => f.property).sort();

describe("Subnet check", () => {
  const ok = { name: "app", cidr: "10.0.0.0/24", networkId: NET };

  test("fills defaults from the spec and from cims: config, so state is explicit", async () => {
    const { inputs, failures } = await subnetMethods.check({}, ok);
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ ...ok, projectId: 1, regionId: 2, connectToNetworkRouter: true, enableDhcp: true, ipVersion: 4, tags: {} });
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ["empty name", { name: " " }, ["name"]],
    ["CIDR with host bits", { cidr: "10.0.0.1/24" }, ["cidr"]],
    ["networkId not uuid4", { networkId: "6ba7b810-9dad-11d1-80b4-00c04fd430c8" }, ["networkId"]],
    ["gatewayIp null without connectToNetworkRouter false", { gatewayIp: null }, ["connectToNetworkRouter"]],
    ["router with connectToNetworkRouter false", { routerIdToConnect: NET, connectToNetworkRouter: false }, ["routerIdToConnect"]],
    ["ipVersion not matching the cidr", { ipVersion: 6 }, ["ipVersion"]],
    ["a bad DNS server and a duplicate", { dnsNameservers: ["8.8.8.8", "nope", "8.8.8.8"] }, ["dnsNameservers[1]", "dnsNameservers[2]"]],
    ["a host route with a bad next hop", { hostRoutes: [{ destination: "10.1.0.0/16", nexthop: "x" }] }, ["hostRoutes[0].nexthop"]],
    ["a 256-character tag value", { tags: { k: "v".repeat(256) } }, ["tags.k"]],
    ["a 256-character tag key", { tags: { ["k".repeat(256)]: "v" } }, [`tags.${"k".repeat(256)}`]],
    ["a misspelled argument", { cidrBlock: "10.0.0.0/24" }, ["cidrBlock"]],
    ["enableDhcp as a string", { enableDhcp: "false" }, ["enableDhcp"]],
  ])("%s fails naming %j", async (_case, change, expected) => {
    const { failures } = await subnetMethods.check({}, { ...ok, ...change });
    expect(props(failures)).toEqual(expected);
    for (const f of failures ?? []) expect(f.reason).toContain(f.property);
    if (_case.includes("tag key")) expect(failures?.[0].reason).toContain("tag keys must be 1 to 255 characters");
  });

  test("gatewayIp null with connectToNetworkRouter false, and a 255-character tag, pass", async () => {
    const { failures } = await subnetMethods.check(
      {},
      { ...ok, gatewayIp: null, connectToNetworkRouter: false, tags: { ["k".repeat(255)]: "v".repeat(255) } },
    );
    expect(failures).toEqual([]);
  });

  test("unknown values (preview) are not failures, anywhere", async () => {
    const { failures } = await subnetMethods.check(
      {},
      { ...ok, networkId: UNKNOWN, cidr: UNKNOWN, dnsNameservers: [UNKNOWN], tags: UNKNOWN },
    );
    expect(failures).toEqual([]);
  });

  test("a missing projectId with no default names cims:projectId", async () => {
    setConfig(() => undefined);
    const prev = process.env.CIMS_PROJECT_ID;
    delete process.env.CIMS_PROJECT_ID;
    try {
      const { failures } = await subnetMethods.check({}, { ...ok, regionId: 1 });
      expect(failures).toEqual([expect.objectContaining({ property: "projectId", reason: expect.stringContaining("cims:projectId") })]);
    } finally {
      if (prev !== undefined) process.env.CIMS_PROJECT_ID = prev;
      setConfig((key) => ({ "cims:projectId": "1", "cims:regionId": "2" })[key]);
    }
  });
});

describe("Subnet diff", () => {
  const olds = {
    name: "app",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    gatewayIp: "10.0.0.1",
    dnsNameservers: [],
    hostRoutes: [],
    routerIdToConnect: null,
    tags: { a: "1", b: "2" },
    projectId: 1,
    regionId: 2,
  };
  const news = {
    name: "app",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    tags: { b: "2", a: "1" },
    projectId: 1,
    regionId: 2,
  };

  // deleteBeforeReplace holds whenever old and new overlap on one network, also with nothing
  // to replace: `pulumi up --replace` replaces a subnet whose diff is empty, in the diff's order.
  test("nothing changed after normalisation: tag order, omitted gateway (allocated), omitted DNS", async () => {
    expect(await subnetMethods.diff("id", olds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true });
  });
  test("in-place fields update; enableDhcp false is a change", async () => {
    const d = await subnetMethods.diff("id", olds, { ...news, enableDhcp: false, tags: { a: "1" }, name: "web" });
    expect(d).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true });
  });
  test("a CIDR change replaces; deleting first when the new CIDR overlaps on the same network", async () => {
    expect(await subnetMethods.diff("id", olds, { ...news, cidr: "10.0.0.0/23" })).toEqual({
      changes: true,
      replaces: ["cidr"],
      deleteBeforeReplace: true,
    });
    expect(await subnetMethods.diff("id", olds, { ...news, cidr: "10.9.0.0/24" })).toEqual({
      changes: true,
      replaces: ["cidr"],
      deleteBeforeReplace: false,
    });
    expect((await subnetMethods.diff("id", olds, { ...news, connectToNetworkRouter: false, gatewayIp: null })).deleteBeforeReplace).toBe(
      true,
    );
  });
  test("an unknown value for a replacing field is a replacement in preview", async () => {
    expect((await subnetMethods.diff("id", olds, { ...news, networkId: UNKNOWN })).replaces).toEqual(["networkId"]);
  });
  test("gatewayIp null (no gateway) differs from the allocated one", async () => {
    expect((await subnetMethods.diff("id", olds, { ...news, gatewayIp: null })).changes).toBe(true);
  });
});

describe("Subnet mapping", () => {
  test("create body: snake_case, omitted stays omitted, null and false are sent", () => {
    expect(
      subnetTable.body({
        name: "a",
        cidr: "10.0.0.0/24",
        networkId: NET,
        connectToNetworkRouter: false,
        enableDhcp: false,
        ipVersion: 4,
        tags: {},
        gatewayIp: null,
      }),
    ).toEqual({
      name: "a",
      cidr: "10.0.0.0/24",
      network_id: NET,
      connect_to_network_router: false,
      enable_dhcp: false,
      ip_version: 4,
      tags: {},
      gateway_ip: null,
    });
    expect(subnetTable.body({ name: "a", cidr: "10.0.0.0/24", networkId: NET, enableDhcp: true, tags: {} })).not.toHaveProperty(
      "gateway_ip",
    );
  });
  test("record -> outputs", () => {
    const out = subnetTable.fromRecord({
      id: SUB,
      name: "a",
      cidr: "10.0.0.0/24",
      network_id: NET,
      enable_dhcp: true,
      gateway_ip: "10.0.0.1",
      dns_nameservers: ["1.1.1.1"],
      host_routes: [{ destination: "10.1.0.0/16", nexthop: "10.0.0.254" }],
      ip_version: 4,
      tags: [
        { key: "e", value: "x", read_only: false },
        { key: "creator_task_id", value: "t-1", read_only: true },
      ],
      total_ips: 9223372036854775807n,
      created_at: "2026-05-23T05:07:31",
      project_id: 1,
      region_id: 2,
    });
    expect(out).toMatchObject({
      networkId: NET,
      tags: { e: "x" },
      readOnlyTags: { creator_task_id: "t-1" },
      gatewayIp: "10.0.0.1",
      dnsNameservers: ["1.1.1.1"],
      totalIps: "9223372036854775807",
      createdAt: "2026-05-23T05:07:31",
    });
    expect(out.hostRoutes).toEqual([{ destination: "10.1.0.0/16", nexthop: "10.0.0.254" }]);
    // Create-only instructions are not in records: the program's values stand.
    expect(out).not.toHaveProperty("connectToNetworkRouter");
    expect(out).not.toHaveProperty("routerIdToConnect");
  });
});

describe("BaremetalImage", () => {
  const ok = { name: "img", volumeId: VOL };
  test("defaults and both-way mapping", async () => {
    const { inputs } = await baremetalImageMethods.check({}, ok);
    expect(inputs).toMatchObject({
      architecture: "x86_64",
      hwFirmwareType: null,
      hwMachineType: null,
      isBaremetal: false,
      osType: "linux",
      source: "volume",
      sshKey: "allow",
      tags: {},
    });
    const body = imageTable.body(inputs);
    expect(body).toEqual({
      name: "img",
      volume_id: VOL,
      architecture: "x86_64",
      hw_firmware_type: null,
      hw_machine_type: null,
      is_baremetal: false,
      os_type: "linux",
      source: "volume",
      ssh_key: "allow",
      tags: {},
    });
    expect(imageTable.fromRecord({ ...body, status: "active", created_at: "t", project_id: 1, region_id: 2 })).toMatchObject({
      volumeId: VOL,
      hwFirmwareType: null,
      isBaremetal: false,
      sshKey: "allow",
      status: "active",
    });
  });
  test.each<[Record<string, unknown>, string]>([
    [{ architecture: "arm64" }, "architecture"],
    [{ hwFirmwareType: "efi" }, "hwFirmwareType"],
    [{ hwMachineType: "i441" }, "hwMachineType"],
    [{ osType: "macos" }, "osType"],
    [{ source: "snapshot" }, "source"],
    [{ sshKey: "maybe" }, "sshKey"],
    [{ isBaremetal: 1 }, "isBaremetal"],
    [{ volumeId: "vol-1" }, "volumeId"],
  ])("%j fails on %s", async (change, property) => {
    expect(props((await baremetalImageMethods.check({}, { ...ok, ...change })).failures)).toEqual([property]);
  });
  test("volumeId, architecture and source replace; the rest update in place", async () => {
    const { inputs: olds } = await baremetalImageMethods.check({}, ok);
    expect((await baremetalImageMethods.diff("id", olds, { ...olds, architecture: "aarch64" })).replaces).toEqual(["architecture"]);
    expect(await baremetalImageMethods.diff("id", olds, { ...olds, sshKey: "deny", hwFirmwareType: "uefi" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    expect((await baremetalImageMethods.diff("id", olds, { ...olds })).changes).toBe(false);
  });
});

describe("LbPoolSettings", () => {
  const ok = { poolId: POOL };
  test.each<[Record<string, unknown>, string[]]>([
    [{ timeoutClientData: -1 }, ["timeoutClientData"]],
    [{ timeoutMemberData: 86400001 }, ["timeoutMemberData"]],
    [{ timeoutMemberConnect: 1.5 }, ["timeoutMemberConnect"]],
    [{ lbAlgorithm: "RANDOM" }, ["lbAlgorithm"]],
    [{ protocol: "SCTP" }, ["protocol"]],
    [{ secretId: "s-1" }, ["secretId"]],
    [{ members: [{ address: "10.0.0.1", protocolPort: 0 }] }, ["members[0].protocolPort"]],
    [
      {
        members: [
          { address: "10.0.0.1", protocolPort: 80 },
          { address: "10.0.0.1", protocolPort: 80 },
        ],
      },
      ["members[1]"],
    ],
    [{ members: [{ address: "10.0.0.1", protocolPort: 80, weight: 257 }] }, ["members[0].weight"]],
    [{ healthmonitor: { type: "HTTP", delay: 0, timeout: 5, maxRetries: 3 } }, ["healthmonitor.delay"]],
    [{ healthmonitor: { type: "HTTP", delay: 5, timeout: 5 } }, ["healthmonitor.maxRetries"]],
    [{ sessionPersistence: { type: "STICKY" } }, ["sessionPersistence.type"]],
  ])("%j fails on %j", async (change, expected) => {
    expect(props((await lbPoolSettingsMethods.check({}, { ...ok, ...change })).failures)).toEqual(expected);
  });
  test("edges pass: 0 and 86400000 ms, null secret and timeouts", async () => {
    const { failures } = await lbPoolSettingsMethods.check(
      {},
      { ...ok, timeoutClientData: 0, timeoutMemberData: 86400000, timeoutMemberConnect: null, secretId: null },
    );
    expect(failures).toEqual([]);
  });
  test("members compare by address+port in any order, on the fields given", () => {
    const server = [
      { address: "10.0.0.1", protocolPort: 80, weight: 1, id: "m1", subnetId: null },
      { address: "10.0.0.2", protocolPort: 80, weight: 5, id: "m2", subnetId: SUB },
    ];
    expect(
      sameMembers(server, [
        { address: "10.0.0.2", protocolPort: 80 },
        { address: "10.0.0.1", protocolPort: 80 },
      ]),
    ).toBe(true);
    expect(
      sameMembers(server, [
        { address: "10.0.0.2", protocolPort: 80, weight: 5, subnetId: SUB },
        { address: "10.0.0.1", protocolPort: 80 },
      ]),
    ).toBe(true);
    expect(
      sameMembers(server, [
        { address: "10.0.0.2", protocolPort: 80, weight: 6 },
        { address: "10.0.0.1", protocolPort: 80 },
      ]),
    ).toBe(false);
    expect(
      sameMembers(server, [
        { address: "10.0.0.2", protocolPort: 81 },
        { address: "10.0.0.1", protocolPort: 80 },
      ]),
    ).toBe(false);
    expect(sameMembers([], null)).toBe(true);
    expect(sameMembers([{ address: "2001:db8::a", protocolPort: 80 }], [{ address: "2001:DB8:0::A", protocolPort: 80 }])).toBe(true);
  });
  test("members the service would keep unchanged despite a new weight or subnet are recreated", () => {
    const current = [
      { id: "m1", address: "10.0.0.1", protocolPort: 80, weight: 1, subnetId: null },
      { id: "m2", address: "10.0.0.2", protocolPort: 80, weight: 5, subnetId: SUB },
    ];
    expect(
      membersToRecreate(current, [
        { address: "10.0.0.1", protocolPort: 80 },
        { address: "10.0.0.2", protocolPort: 80, weight: 5 },
      ]),
    ).toEqual([]);
    expect(
      membersToRecreate(current, [
        { address: "10.0.0.1", protocolPort: 80, weight: 2 },
        { address: "10.0.0.3", protocolPort: 80, weight: 9 },
      ]),
    ).toEqual([{ address: "10.0.0.1", protocolPort: 80, weight: 2 }]);
    expect(membersToRecreate(current, [{ address: "10.0.0.2", protocolPort: 80, subnetId: null }])).toHaveLength(1);
  });
  test("diff: only given fields are managed; poolId replaces; nested objects compare on given fields", async () => {
    const olds = {
      poolId: POOL,
      projectId: 1,
      regionId: 2,
      name: "web",
      healthmonitor: { id: "h", type: "HTTP", delay: 10, timeout: 5, maxRetries: 3, maxRetriesDown: 3 },
    };
    expect(
      (
        await lbPoolSettingsMethods.diff(POOL, olds, {
          poolId: POOL,
          projectId: 1,
          regionId: 2,
          name: "web",
          healthmonitor: { type: "HTTP", delay: 10, timeout: 5, maxRetries: 3 },
        })
      ).changes,
    ).toBe(false);
    expect(
      await lbPoolSettingsMethods.diff(POOL, olds, {
        poolId: POOL,
        projectId: 1,
        regionId: 2,
        name: "web",
        healthmonitor: { type: "HTTP", delay: 20, timeout: 5, maxRetries: 3 },
      }),
    ).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    expect((await lbPoolSettingsMethods.diff(POOL, olds, { ...olds, poolId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" })).replaces).toEqual([
      "poolId",
    ]);
  });
  test("mapping: PATCH body snake_cases nested objects and members; members null is sent as null; record back to camelCase", () => {
    const inputs = {
      members: [{ address: "10.0.0.1", protocolPort: 80, subnetId: SUB }],
      healthmonitor: { type: "HTTP", delay: 1, timeout: 1, maxRetries: 1, urlPath: "/" },
      timeoutClientData: 0,
    };
    expect(patchBody(inputs, ["members", "healthmonitor", "timeoutClientData", "name"])).toEqual({
      members: [{ address: "10.0.0.1", protocol_port: 80, subnet_id: SUB }],
      healthmonitor: { type: "HTTP", delay: 1, timeout: 1, max_retries: 1, url_path: "/" },
      timeout_client_data: 0,
    });
    expect(patchBody({ members: null }, ["members"])).toEqual({ members: null });
    expect(
      poolTable.fromRecord(
        { members: [{ id: "m", address: "a", protocol_port: 1, operating_status: "NO_MONITOR" }], name: "x", session_persistence: null },
        { members: [], sessionPersistence: {} },
      ),
    ).toEqual({
      members: [{ id: "m", address: "a", protocolPort: 1, operatingStatus: "NO_MONITOR" }],
      sessionPersistence: null,
    });
  });
});

describe("SnapshotPolicyState", () => {
  test("rules, defaults and mapping", async () => {
    expect(props((await snapshotPolicyStateMethods.check({}, { policyId: 1, status: "stopped" })).failures)).toEqual(["status"]);
    expect(props((await snapshotPolicyStateMethods.check({}, { policyId: "1" })).failures)).toEqual(["policyId"]);
    const { inputs } = await snapshotPolicyStateMethods.check({}, { policyId: 101, status: "paused" });
    expect(inputs).toEqual({ policyId: 101, status: "paused", includeVolumes: false, projectId: 1, regionId: 2 });
    const out = policyTable.fromRecord({
      id: 101,
      name: "n",
      status: "paused",
      action: "volume_snapshot",
      user_id: 7,
      schedules: [{ max_quantity: 2, retention_time: { days: 1 }, resource_name_template: "{volume_id}" }],
      volumes: [{ volume_id: "v", volume_name: "n" }],
      project_id: 1,
      region_id: 2,
    });
    expect(out).toEqual({
      policyId: 101,
      name: "n",
      status: "paused",
      action: "volume_snapshot",
      userId: 7,
      schedules: [{ maxQuantity: 2, retentionTime: { days: 1 }, resourceNameTemplate: "{volume_id}" }],
      volumes: [{ volumeId: "v", volumeName: "n" }],
      projectId: 1,
      regionId: 2,
    });
    expect(policyTable.fromRecord({ id: 1 })).not.toHaveProperty("volumes");
  });
  test("omitted name/status are unmanaged; policyId replaces", async () => {
    const olds = { policyId: 101, name: "n", status: "active", includeVolumes: false, projectId: 1, regionId: 2 };
    expect(
      (await snapshotPolicyStateMethods.diff("101", olds, { policyId: 101, includeVolumes: false, projectId: 1, regionId: 2 })).changes,
    ).toBe(false);
    expect((await snapshotPolicyStateMethods.diff("101", olds, { ...olds, status: "paused" })).replaces).toEqual([]);
    expect((await snapshotPolicyStateMethods.diff("101", olds, { ...olds, policyId: 102 })).replaces).toEqual(["policyId"]);
  });
});

describe("QuotaThreshold", () => {
  test.each<[Record<string, unknown>, string[]]>([
    [{ threshold: 59 }, ["threshold"]],
    [{ threshold: 101 }, ["threshold"]],
    [{ threshold: 75.5 }, ["threshold"]],
    [{ threshold: "80" }, ["threshold"]],
    [{ lastMessage: { globalQuotas: { bogusLimit: { limit: 1, usage: 1 } } } }, ["lastMessage.globalQuotas.bogusLimit"]],
    [
      { lastMessage: { globalQuotas: { keypairCountLimit: { limit: "9223372036854775808", usage: 0 } } } },
      ["lastMessage.globalQuotas.keypairCountLimit.limit"],
    ],
    [
      { lastMessage: { globalQuotas: { keypairCountLimit: { limit: 2 ** 60, usage: 0 } } } },
      ["lastMessage.globalQuotas.keypairCountLimit.limit"],
    ],
    [{ lastSending: "yesterday" }, ["lastSending"]],
  ])("%j fails on %j", async (change, expected) => {
    expect(props((await quotaThresholdMethods.check({}, { clientId: 1, threshold: 80, ...change })).failures)).toEqual(expected);
  });
  test("60 and 100 pass; int64 extremes pass as strings and stay digit-exact through the wire mapping", async () => {
    for (const threshold of [60, 100]) expect((await quotaThresholdMethods.check({}, { clientId: 1, threshold })).failures).toEqual([]);
    const lastMessage = {
      globalQuotas: { projectCountLimit: { limit: "9223372036854775807", usage: 3 } },
      regionalQuotas: [
        { regionId: 1, regionName: "Lux", volumeSizeLimit: { limit: "9223372036854775807", usage: "-9223372036854775808" } },
      ],
    };
    const { inputs, failures } = await quotaThresholdMethods.check({}, { clientId: 1, threshold: 75, lastMessage, lastSending: null });
    expect(failures).toEqual([]);
    expect((inputs.lastMessage as { globalQuotas: Record<string, unknown> }).globalQuotas.projectCountLimit).toEqual({
      limit: "9223372036854775807",
      usage: "3",
    });
    const wire = stringifyJson(quotaTable.body(inputs));
    expect(wire).toBe(
      '{"threshold":75,"last_message":{"global_quotas":{"project_count_limit":{"limit":9223372036854775807,"usage":3}},"regional_quotas":[{"region_id":1,"region_name":"Lux","volume_size_limit":{"limit":9223372036854775807,"usage":-9223372036854775808}}]},"last_sending":null}',
    );
    expect(quotaTable.fromRecord(parseJson(wire) as Record<string, unknown>).lastMessage).toEqual(inputs.lastMessage);
  });
});

describe("unknown values during preview, in every resource", () => {
  test.each([
    ["BaremetalImage", () => baremetalImageMethods.check({}, { name: "img", volumeId: UNKNOWN, tags: { a: UNKNOWN } })],
    [
      "LbPoolSettings: two members with unknown addresses and the same port are not duplicates",
      () =>
        lbPoolSettingsMethods.check(
          {},
          {
            poolId: POOL,
            members: [
              { address: UNKNOWN, protocolPort: 80 },
              { address: UNKNOWN, protocolPort: 80, subnetId: UNKNOWN },
            ],
          },
        ),
    ],
    [
      "LbPoolSettings nested",
      () =>
        lbPoolSettingsMethods.check({}, { poolId: UNKNOWN, healthmonitor: { type: "HTTP", delay: UNKNOWN, timeout: 5, maxRetries: 3 } }),
    ],
    ["SnapshotPolicyState", () => snapshotPolicyStateMethods.check({}, { policyId: UNKNOWN, name: UNKNOWN, status: UNKNOWN })],
    [
      "QuotaThreshold: unknowns inside lastMessage",
      () =>
        quotaThresholdMethods.check(
          {},
          {
            clientId: 1,
            threshold: UNKNOWN,
            lastMessage: { globalQuotas: { keypairCountLimit: { limit: UNKNOWN, usage: "1" } }, regionalQuotas: UNKNOWN },
          },
        ),
    ],
    [
      "QuotaThreshold: unknown globalQuotas",
      () => quotaThresholdMethods.check({}, { clientId: 1, threshold: 75, lastMessage: { globalQuotas: UNKNOWN } }),
    ],
  ])("%s: check passes and keeps the unknowns", async (_name, run) => {
    const { failures, inputs } = await run();
    expect(failures).toEqual([]);
    expect(JSON.stringify(inputs)).toContain(UNKNOWN);
  });
});

test("QuotaThreshold: a fractional or non-numeric quota number is a failure naming it, not a crash", async () => {
  const { failures } = await quotaThresholdMethods.check(
    {},
    {
      clientId: 1,
      threshold: 75,
      lastMessage: { globalQuotas: { keypairCountLimit: { limit: 1.5, usage: "x" } } },
    },
  );
  expect(props(failures)).toEqual(["lastMessage.globalQuotas.keypairCountLimit.limit", "lastMessage.globalQuotas.keypairCountLimit.usage"]);
});

test("LbPoolSettings: healthmonitor and sessionPersistence null remove them: a change, then none; the monitor by a DELETE of its own", async () => {
  const { failures, inputs } = await lbPoolSettingsMethods.check({}, { poolId: POOL, healthmonitor: null, sessionPersistence: null });
  expect(failures).toEqual([]);
  const olds = {
    poolId: POOL,
    projectId: 1,
    regionId: 2,
    healthmonitor: { type: "TCP", delay: 5, timeout: 5, maxRetries: 3 },
    sessionPersistence: { type: "SOURCE_IP" },
  };
  expect((await lbPoolSettingsMethods.diff(POOL, olds, inputs)).changes).toBe(true);
  expect((await lbPoolSettingsMethods.diff(POOL, { ...olds, healthmonitor: null, sessionPersistence: null }, inputs)).changes).toBe(false);
  expect(patchBody(inputs, ["healthmonitor", "sessionPersistence"])).toEqual({ session_persistence: null });
  expect(poolTable.removals(inputs, ["healthmonitor", "sessionPersistence"])).toEqual(["healthmonitor"]);
});

describe("values the service re-spells or reorders are not changes", () => {
  const subnetOlds = {
    name: "v6",
    cidr: "2001:db8::/64",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 6,
    gatewayIp: "2001:db8::1",
    dnsNameservers: ["2001:4860:4860::8888"],
    hostRoutes: [
      { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      { destination: "2001:db8:ff::/48", nexthop: "2001:db8::fe" },
    ],
    tags: { a: "1" },
    readOnlyTags: { creator_task_id: "t-1" },
    projectId: 1,
    regionId: 2,
  };
  test("canonical CIDR, addresses and uuids; host routes in any order; read-only tags never diffed", async () => {
    const news = {
      ...subnetOlds,
      cidr: "2001:DB8:0:0::/64",
      networkId: NET.toUpperCase(),
      gatewayIp: "2001:DB8::1",
      dnsNameservers: ["2001:4860:4860:0:0:0:0:8888"],
      hostRoutes: [
        { destination: "2001:db8:ff::/48", nexthop: "2001:DB8::FE" },
        { destination: "2001:db8:1::/48", nexthop: "2001:db8::fd" },
      ],
    };
    delete (news as Record<string, unknown>).readOnlyTags;
    expect(await subnetMethods.diff("id", subnetOlds, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: true });
    expect((await subnetMethods.diff("id", subnetOlds, { ...news, cidr: "2001:db9::/64" })).replaces).toEqual(["cidr"]);
    // DNS order is the resolver order: it matters.
    expect(
      (
        await subnetMethods.diff(
          "id",
          { ...subnetOlds, dnsNameservers: ["1.1.1.1", "8.8.8.8"] },
          { ...news, dnsNameservers: ["8.8.8.8", "1.1.1.1"] },
        )
      ).changes,
    ).toBe(true);
  });
  test("members in any order and spelling; lastSending with a zone is the zone-less instant", async () => {
    const members = [
      { id: "m1", address: "2001:db8::a", protocolPort: 80, weight: 1 },
      { id: "m2", address: "10.0.0.1", protocolPort: 81, weight: 1 },
    ];
    const poolOlds = { poolId: POOL, projectId: 1, regionId: 2, members };
    expect(
      (
        await lbPoolSettingsMethods.diff(POOL, poolOlds, {
          poolId: POOL,
          projectId: 1,
          regionId: 2,
          members: [
            { address: "10.0.0.1", protocolPort: 81 },
            { address: "2001:DB8:0::A", protocolPort: 80 },
          ],
        })
      ).changes,
    ).toBe(false);
    const quota = { clientId: 1, threshold: 80, lastSending: "2026-05-23T05:07:31" };
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T07:07:31+02:00" })).changes).toBe(false);
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T05:07:31Z" })).changes).toBe(false);
    expect((await quotaThresholdMethods.diff("1", quota, { ...quota, lastSending: "2026-05-23T05:07:32Z" })).changes).toBe(true);
  });
  test("tags: a read-only key is refused at preview, naming it", async () => {
    const { failures } = await subnetMethods.check({}, { name: "s", cidr: "10.0.0.0/24", networkId: NET, tags: { creator_task_id: "x" } });
    expect(failures).toEqual([{ property: "tags.creator_task_id", reason: expect.stringContaining("tag creator_task_id is read-only") }]);
  });
});

test("LbPoolSettings: after a half-applied create, the next up re-applies every given field", async () => {
  const news = {
    __provider: "shim",
    poolId: POOL,
    projectId: 1,
    regionId: 2,
    name: "web",
    lbAlgorithm: "ROUND_ROBIN",
    members: [{ address: "10.0.0.1", protocolPort: 80 }],
  };
  const recorded = identityOnly(news);
  expect(recorded).toEqual({ __provider: "shim", poolId: POOL, projectId: 1, regionId: 2 });
  const d = await lbPoolSettingsMethods.diff(POOL, recorded, news);
  expect(d.changes).toBe(true);
  expect(d.replaces ?? []).toEqual([]);
  expect(patchBody(news, ["name", "lbAlgorithm", "members"])).toEqual({
    name: "web",
    lb_algorithm: "ROUND_ROBIN",
    members: [{ address: "10.0.0.1", protocol_port: 80 }],
  });
});

test("a float-form number beyond 2^53 from the service reaches state as its exact text, not an object", () => {
  const record = parseJson('{"total_ips": 1e19, "size": 9007199254740993.0}') as Record<string, unknown>;
  expect(plain(camelKeys(record))).toEqual({ totalIps: "1e19", size: "9007199254740993.0" });
});

test("a state whose tags are a record's list (written by an older provider) compares and patches by the users' tags only", async () => {
  const olds = {
    name: "a",
    cidr: "10.0.0.0/24",
    networkId: NET,
    connectToNetworkRouter: true,
    enableDhcp: true,
    ipVersion: 4,
    projectId: 1,
    regionId: 2,
    tags: [
      { key: "env", value: "dev", read_only: false },
      { key: "creator_task_id", value: "t-1", read_only: true },
    ],
  };
  const news = { ...olds, tags: { env: "dev" } };
  expect((await subnetMethods.diff("id", olds, news)).changes).toBe(false);
  expect(subnetTable.patch(olds, { ...news, tags: { team: "a" } }, ["tags"])).toEqual({ tags: { team: "a", env: null } });
});
