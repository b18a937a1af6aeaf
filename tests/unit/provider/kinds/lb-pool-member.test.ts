// check() and diff() of LbPoolMember, and its bodies on the wire (no engine, no network).
import { LbPoolMember } from "../../../../provider/kinds/lb-pool-member";
import { UNKNOWN } from "../../../../provider/methods/schema";
import { POOL, SUB, props, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

const { methods, table } = LbPoolMember;
const INSTANCE = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";
const ok = { poolId: POOL, address: "10.0.0.21", protocolPort: 8080, subnetId: SUB };

describe("LbPoolMember check", () => {
  test("fills the service's defaults and the scope, so the state is explicit", async () => {
    const { inputs, failures } = await methods.check({}, ok);
    expect(failures).toEqual([]);
    expect(inputs).toEqual({
      ...ok,
      projectId: 1,
      regionId: 2,
      weight: 1,
      adminStateUp: true,
      backup: false,
      monitorAddress: null,
      monitorPort: null,
    });
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ["address not an IP", { address: "app.local" }, ["address"]],
    ["port 0", { protocolPort: 0 }, ["protocolPort"]],
    ["port 65536", { protocolPort: 65536 }, ["protocolPort"]],
    ["weight 0", { weight: 0 }, ["weight"]],
    ["weight 257", { weight: 257 }, ["weight"]],
    ["monitorPort 70000", { monitorPort: 70000 }, ["monitorPort"]],
    ["monitorAddress not an IP", { monitorAddress: "x" }, ["monitorAddress"]],
    ["poolId not uuid4", { poolId: "6ba7b810-9dad-11d1-80b4-00c04fd430c8" }, ["poolId"]],
    ["subnetId not uuid4", { subnetId: "nope" }, ["subnetId"]],
    ["both subnetId and instanceId", { instanceId: INSTANCE }, ["instanceId"]],
    ["a misspelled argument", { port: 80 }, ["port"]],
  ])("%s fails naming %j", async (_case, change, expected) => {
    const { failures } = await methods.check({}, { ...ok, ...change });
    expect(props(failures)).toEqual(expected);
    for (const f of failures ?? []) expect(f.reason).toContain(f.property);
  });

  test("the rule across subnetId and instanceId says what to give; neither is a public member, which passes", async () => {
    const both = await methods.check({}, { ...ok, instanceId: INSTANCE });
    expect(both.failures?.[0].reason).toMatch(/instanceId.*must not be given with subnetId: give one of them/);
    expect(both.failures?.[0].reason).toContain("or neither for a member reached over the public network");
    expect((await methods.check({}, { ...ok, subnetId: undefined })).failures).toEqual([]);
  });

  test("instanceId instead of subnetId, and nulls for the monitor, pass", async () => {
    const { failures } = await methods.check(
      {},
      { ...ok, subnetId: undefined, instanceId: INSTANCE, monitorAddress: null, monitorPort: null },
    );
    expect(failures).toEqual([]);
  });

  test("unknown values (preview) are not failures", async () => {
    const { failures } = await methods.check({}, { ...ok, poolId: UNKNOWN, subnetId: UNKNOWN, address: UNKNOWN });
    expect(failures).toEqual([]);
  });
});

describe("LbPoolMember diff", () => {
  let olds: Record<string, unknown>;
  beforeAll(async () => {
    olds = (await methods.check({}, ok)).inputs!;
  });

  test("no change, no diff", async () => {
    expect((await methods.diff("m", olds, { ...olds })).changes).toBe(false);
  });

  test("weight, adminStateUp, backup and the monitor change in place", async () => {
    const news = { ...olds, weight: 5, adminStateUp: false, backup: true, monitorAddress: "10.0.0.99", monitorPort: 9000 };
    const d = await methods.diff("m", olds, news);
    expect(d.changes).toBe(true);
    expect(d.replaces).toEqual([]);
    expect([...(d.diffs ?? [])].sort()).toEqual(["adminStateUp", "backup", "monitorAddress", "monitorPort", "weight"]);
  });

  test.each<[string, Record<string, unknown>]>([
    ["address", { address: "10.0.0.22" }],
    ["protocolPort", { protocolPort: 8081 }],
    ["subnetId", { subnetId: "2c3d4e5f-6071-4b2c-9d3e-4f5a6b7c8d9e" }],
    ["poolId", { poolId: "4e5f6071-8b9c-4d0e-9f1a-2b3c4d5e6f70" }],
    ["projectId", { projectId: 9 }],
  ])("a change of %s replaces", async (field, change) => {
    const d = await methods.diff("m", olds, { ...olds, ...change });
    expect(d.replaces).toEqual([field]);
  });

  test("a replacement at the same address and port in the same pool deletes the old member first", async () => {
    expect((await methods.diff("m", olds, { ...olds, subnetId: "2c3d4e5f-6071-4b2c-9d3e-4f5a6b7c8d9e" })).deleteBeforeReplace).toBe(true);
    expect((await methods.diff("m", olds, { ...olds, address: "10.0.0.22" })).deleteBeforeReplace).toBe(false);
  });

  test("the same address spelled otherwise is no change", async () => {
    const v6 = (await methods.check({}, { ...ok, address: "2001:db8::a" })).inputs!;
    expect((await methods.diff("m", v6, { ...v6, address: "2001:DB8:0::a" })).changes).toBe(false);
  });
});

describe("LbPoolMember bodies", () => {
  test("the create body is the fields in snake_case, with no tags (members have none)", async () => {
    const inputs = (await methods.check({}, ok)).inputs!;
    expect(table.body(inputs)).toEqual({
      address: "10.0.0.21",
      protocol_port: 8080,
      subnet_id: SUB,
      weight: 1,
      admin_state_up: true,
      backup: false,
      monitor_address: null,
      monitor_port: null,
    });
  });

  test("the update body holds only the in-place fields that changed", async () => {
    const olds = (await methods.check({}, ok)).inputs!;
    expect(table.patch(olds, { ...olds, weight: 3 }, ["weight"])).toEqual({ weight: 3 });
  });
});
