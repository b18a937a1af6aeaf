// check() and diff() of LbPoolSettings, and its mapping to and from the wire (no engine, no network).
import { setLogSink, type Severity } from "../../../../provider/methods/context";
import {
  createTakes,
  identityOnly,
  lbPoolSettingsMethods,
  membersToRecreate,
  patchBody,
  poolTable,
} from "../../../../provider/kinds/lb-pool-settings";
import { sameMembers } from "../../../../provider/methods/table";
import { recordsIn } from "../../../../api/guards";
import { ownedIds, ownView } from "../../../../provider/kinds/lb-pool-settings-members";
import { POOL, SUB, props, withScopeConfig } from "../../../support/check-diff";

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
  test("members whose subnet changes are recreated; a weight changes in place", () => {
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
    ).toEqual([]);
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
    ).toEqual({ changes: true, replaces: [], deleteBeforeReplace: true, diffs: ["healthmonitor"] });
    expect((await lbPoolSettingsMethods.diff(POOL, olds, { ...olds, poolId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" })).replaces).toEqual([
      "poolId",
    ]);
  });
  test("mapping: the pool PATCH body snake_cases nested objects and never sends members (they go one by one); record back to camelCase", () => {
    const inputs = {
      members: [{ address: "10.0.0.1", protocolPort: 80, subnetId: SUB }],
      healthmonitor: { type: "HTTP", delay: 1, timeout: 1, maxRetries: 1, urlPath: "/" },
      timeoutClientData: 0,
    };
    expect(patchBody(inputs, ["members", "healthmonitor", "timeoutClientData", "name"])).toEqual({
      healthmonitor: { type: "HTTP", delay: 1, timeout: 1, max_retries: 1, url_path: "/" },
      timeout_client_data: 0,
    });
    expect(patchBody({ members: null }, ["members"])).toEqual({});
    expect(
      poolTable.fromRecord(
        {
          members: [{ id: "m", address: "a", protocol_port: 1, operating_status: "NO_MONITOR" }],
          name: "x",
          session_persistence: null,
          operating_status: "ONLINE",
        },
        { members: [], sessionPersistence: {} },
      ),
    ).toEqual({
      members: [{ id: "m", address: "a", protocolPort: 1, operatingStatus: "NO_MONITOR" }],
      sessionPersistence: null,
      operatingStatus: "ONLINE",
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
  const recorded = identityOnly(news, { "10.0.0.1:80": "m-1" });
  // The members it added are recorded as the stack's, by id, for destroy to remove.
  expect(recorded).toEqual({
    __provider: "shim",
    poolId: POOL,
    projectId: 1,
    regionId: 2,
    declaredMembers: ["10.0.0.1:80"],
    declaredMemberIds: { "10.0.0.1:80": "m-1" },
  });
  const d = await lbPoolSettingsMethods.diff(POOL, recorded, news);
  expect(d.changes).toBe(true);
  expect(d.replaces ?? []).toEqual([]);
  expect(d.diffs).toEqual(expect.arrayContaining(["name", "lbAlgorithm", "members"]));
  expect(patchBody(news, ["name", "lbAlgorithm", "members"])).toEqual({ name: "web", lb_algorithm: "ROUND_ROBIN" });
});

describe("LbPoolSettings: what a create or update takes from a shared pool", () => {
  const held = {
    id: POOL,
    name: "web-pool",
    lb_algorithm: "ROUND_ROBIN",
    members: [
      { id: "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e", address: "10.0.0.10", protocol_port: 8080, weight: 1, subnet_id: null },
      { id: "8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f", address: "10.0.0.20", protocol_port: 80, weight: 1, subnet_id: null },
    ],
  };
  const checked = (news: Record<string, unknown>) => poolTable.check({}, { poolId: POOL, ...news }).inputs;

  test("an exclusive create names each member it removes or re-adds, and each setting it changes, old -> new", () => {
    const inputs = checked({
      name: "shared",
      membersOwnership: "exclusive",
      members: [
        { address: "10.0.0.20", protocolPort: 80, weight: 3, subnetId: SUB },
        { address: "10.0.0.30", protocolPort: 80 },
      ],
    });
    expect(createTakes(held, inputs)).toEqual([
      "removes member(s) 10.0.0.10:8080 (id 7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e)",
      expect.stringMatching(
        /^removes and re-adds member\(s\) 10\.0\.0\.20:80 \(id 8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f; weight 1 -> 3; subnetId null -> "[0-9a-f-]+"\) /,
      ),
      'changes name: "web-pool" -> "shared"',
    ]);
  });

  test("a create with the default ownership removes no member it does not list, and re-adds none for a weight", () => {
    const inputs = checked({ name: "shared", members: [{ address: "10.0.0.20", protocolPort: 80, weight: 3 }] });
    expect(createTakes(held, inputs)).toEqual(['changes name: "web-pool" -> "shared"']);
  });

  test("a create that takes nothing (the pool as the program says, or members not managed) says nothing", () => {
    const same = checked({
      name: "web-pool",
      members: [
        { address: "10.0.0.20", protocolPort: 80 },
        { address: "10.0.0.10", protocolPort: 8080 },
      ],
    });
    expect(createTakes(held, same)).toEqual([]);
    expect(createTakes(held, checked({ lbAlgorithm: "ROUND_ROBIN" }))).toEqual([]);
  });

  test("members known only at apply (a new subnet's id): the removals by address+port are still named", () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const inputs = checked({
      membersOwnership: "exclusive",
      members: [
        { address: "10.0.0.20", protocolPort: 80 },
        { address: "10.20.0.10", protocolPort: 8080, subnetId: unknown },
      ],
    });
    expect(createTakes(held, inputs)).toEqual(["removes member(s) 10.0.0.10:8080 (id 7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e)"]);
  });

  test("an update's diff warns of each member it removes and re-adds (a new subnet), and of nothing else (a weight is in place)", async () => {
    const lines: Array<[string, Severity]> = [];
    setLogSink((line, severity) => {
      lines.push([line, severity]);
    });
    const olds = { poolId: POOL, projectId: 1, regionId: 2, members: [{ id: "m-1", address: "10.0.0.20", protocolPort: 80, weight: 1 }] };
    await lbPoolSettingsMethods.diff(POOL, olds, { ...olds, members: [{ address: "10.0.0.20", protocolPort: 80, weight: 4 }] });
    expect(lines).toEqual([]);
    await lbPoolSettingsMethods.diff(POOL, olds, { ...olds, members: [{ address: "10.0.0.20", protocolPort: 80, subnetId: SUB }] });
    expect(lines).toEqual([
      [
        expect.stringMatching(
          new RegExp(
            `^cims: LbPoolSettings of pool ${POOL}: the update removes and re-adds member\\(s\\) 10\\.0\\.0\\.20:80 \\(id m-1; subnetId none -> "${SUB}"\\)`,
          ),
        ),
        "warning",
      ],
    ]);
    lines.length = 0;
    await lbPoolSettingsMethods.diff(POOL, olds, {
      ...olds,
      name: "renamed",
      members: [
        { address: "10.0.0.20", protocolPort: 80, weight: 1 },
        { address: "10.0.0.21", protocolPort: 80 },
      ],
    });
    expect(lines).toEqual([]);
  });
});

describe("LbPoolSettings: which members are the stack's", () => {
  const pool = {
    members: [
      { id: "m-ours", address: "10.0.0.10", protocol_port: 8080 },
      { id: "m-theirs", address: "10.0.0.55", protocol_port: 8080 },
    ],
  };

  test("a state with ids: those and no other, whatever the pool holds at the same address", () => {
    expect(ownedIds({ declaredMembers: ["10.0.0.10:8080"], declaredMemberIds: { "10.0.0.10:8080": "m-old" } }, pool)).toEqual({
      "10.0.0.10:8080": "m-old",
    });
  });

  test("a state of an earlier version (declared by address:port, no ids): its declared members only are found in the pool", () => {
    expect(ownedIds({ declaredMembers: ["10.0.0.10:8080"], members: [{ address: "10.0.0.55", protocolPort: 8080 }] }, pool)).toEqual({
      "10.0.0.10:8080": "m-ours",
    });
  });

  test("the view of the pool the state records: the stack's members only, unless it owns the pool exclusively", () => {
    const owned = { "10.0.0.10:8080": "m-ours" };
    expect(recordsIn(ownView(pool, owned, "declared").members).map((m) => m.id)).toEqual(["m-ours"]);
    expect(recordsIn(ownView(pool, owned, "exclusive").members).map((m) => m.id)).toEqual(["m-ours", "m-theirs"]);
  });
});
