// A field the contract says every record carries (`inEveryRecord`) is one the vendor SDK's
// response model requires and never holds as None: schema.json marks its output required, and
// Go's SDK reads it as a plain value, so it must never be missing.
import { toSnake } from "../../api/names";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";
import { runVendorScript } from "../support/vendor-sdk";

jest.setTimeout(60_000);

/** Each kind's record, as the vendor SDK's response model types it. */
const RESPONSE_MODELS: Readonly<Record<string, string>> = {
  Subnet: "gcore.types.cloud.subnet.Subnet",
  BaremetalImage: "gcore.types.cloud.instances.image.Image",
  LbPoolSettings: "gcore.types.cloud.load_balancer_pool.LoadBalancerPool",
  SnapshotPolicyState: "gcore.types.cloud.lifecycle_policy.LifecyclePolicy",
  QuotaThreshold: "gcore.types.cloud.quotas.notification_threshold.NotificationThreshold",
  LbPoolMember: "gcore.types.cloud.member.Member",
};

/** `[model, wire name]` of every field a kind's contract says every record carries. */
function claimed(): Array<[string, string]> {
  return KIND_NAMES.flatMap((type) => {
    const { fields, record } = kind(type).descriptor.contract;
    const wire = [
      ...Object.entries(fields)
        .filter(([, f]) => f.inEveryRecord)
        .map(([name, f]) => f.recordName ?? toSnake(name)),
      ...Object.entries(record)
        .filter(([, f]) => f.inEveryRecord)
        .map(([name]) => name),
    ];
    return wire.map((name): [string, string] => [RESPONSE_MODELS[type], name]);
  });
}

test("every kind's record has the vendor SDK's response model named here", () => {
  expect(Object.keys(RESPONSE_MODELS).sort()).toEqual([...KIND_NAMES].sort());
});

test("every field a contract says every record carries, the vendor SDK's response model requires, never None", async () => {
  const pairs = claimed();
  expect(pairs.length).toBeGreaterThan(0);
  const { code, stdout, stderr } = await runVendorScript("response_fields.py", [JSON.stringify(pairs)]);
  expect(stderr).not.toMatch(/Traceback/);
  expect(code).toBe(0);
  const required = JSON.parse(stdout) as Record<string, boolean>;
  expect(Object.entries(required).filter(([, always]) => !always)).toEqual([]);
  expect(Object.keys(required).sort()).toEqual(pairs.map(([model, field]) => `${model}.${field}`).sort());
});
