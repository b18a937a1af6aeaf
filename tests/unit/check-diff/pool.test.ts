// check() and diff() of LbPoolSettings, and its mapping to and from the wire (no engine, no network).
import { identityOnly, lbPoolSettingsMethods, membersToRecreate, patchBody, poolTable } from "../../../provider/methods/lb-pool-settings";
import { sameMembers } from "../../../provider/methods/table";
import { POOL, SUB, props, withScopeConfig } from "../../support/check-diff";

withScopeConfig();

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
