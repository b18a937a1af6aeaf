// The request checker (check_requests.py) refuses what the vendor SDK's request types refuse,
// also where pydantic alone would let it pass (an unknown key, dropped silently; a bad item of
// a lazily checked list), and takes what they take: otherwise the e2e run's check of every
// provider request body (tests/e2e/support/global-teardown.ts) would prove nothing.
import * as fs from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { runVendorScript } from "../support/vendor-sdk";

// Each case starts the Python checker, which imports the vendor SDK: seconds on a loaded machine.
jest.setTimeout(60_000);

const UA = "pulumi-cims/0.1.0";
const line = (method: string, route: string, body: unknown, userAgent = UA) =>
  JSON.stringify({ method, path: route.replace(/:[a-z_]+/g, "1"), route, status: 200, user_agent: userAgent, body });

const SUBNETS = "/cloud/v1/subnets/:project_id/:region_id";
const IMAGE = "/cloud/v1/images/:project_id/:region_id/:image_id";
const BMIMAGES = "/cloud/v1/bmimages/:project_id/:region_id";
const POOL = "/cloud/v1/lbpools/:project_id/:region_id/:pool_id";
const MEMBER = "/cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members/:member_id";
const POOL_ID = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";

async function check(
  lines: string[],
): Promise<{ code: number; report: { checked: Record<string, number>; failures: Array<{ problems: string[] }> } }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "check-requests-"));
  try {
    const file = path.join(dir, "requests.jsonl");
    await fs.writeFile(file, `${lines.join("\n")}\n`);
    const { code, stdout } = await runVendorScript("check_requests.py", [file]);
    return { code, report: JSON.parse(stdout) };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

test("valid bodies pass: the spec's pc on its create path is the SDK's i440", async () => {
  const { code, report } = await check([
    line("POST", SUBNETS, { name: "a", cidr: "10.0.0.0/24", network_id: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01", gateway_ip: null }),
    line("POST", BMIMAGES, { name: "img", volume_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", hw_machine_type: "pc" }),
    line("PATCH", IMAGE, { hw_machine_type: "i440", tags: { a: null } }),
    line("GET", SUBNETS, null),
  ]);
  expect(report.failures).toEqual([]);
  expect(report.checked).toEqual({ SubnetCreateParams: 1, ImageCreateFromVolumeParams: 1, ImageUpdateParams: 1 });
  expect(code).toBe(0);
});

// The SDK's member update type requires `pool_id`, a parameter of the path, never of the body.
test("a path parameter the SDK's type requires is taken from the request's path, and refused in its body", async () => {
  const member = (body: unknown) =>
    JSON.stringify({
      method: "PATCH",
      path: `/cloud/v1/loadbalancers/1/1/pools/${POOL_ID}/members/${POOL_ID}`,
      route: MEMBER,
      status: 200,
      user_agent: UA,
      body,
    });
  const good = await check([member({ weight: 5 })]);
  expect(good.report.failures).toEqual([]);
  expect(good.report.checked).toEqual({ MemberUpdateParams: 1 });
  const bad = await check([member({ weight: 5, pool_id: POOL_ID })]);
  expect(bad.code).toBe(1);
  expect(bad.report.failures.flatMap((f) => f.problems).join("\n")).toMatch(/pool_id: a path parameter, not a body field/);
});

test.each([
  ["an unknown key (a camelCase leak)", line("POST", SUBNETS, { name: "a", cidr: "10.0.0.0/24", networkId: "x" }), /networkId: not a key/],
  ["a missing required key", line("POST", SUBNETS, { name: "a", network_id: "x" }), /cidr/],
  ["the spec's pc on the reference's image update", line("PATCH", IMAGE, { hw_machine_type: "pc" }), /hw_machine_type/],
  ["a bad member, deep in a list pydantic checks lazily", line("PATCH", POOL, { members: [{ address: "10.0.0.1" }] }), /protocol_port/],
  [
    "an unknown key inside a health monitor",
    line("PATCH", POOL, { healthmonitor: { delay: 1, timeout: 1, max_retries: 1, maxRetries: 1 } }),
    /maxRetries/,
  ],
  ["a call the SDK has no type for", line("POST", "/cloud/v1/nothing", { a: 1 }), /no SDK request type/],
])("%s fails", async (_what, bad, problem) => {
  const { code, report } = await check([bad]);
  expect(code).toBe(1);
  expect(report.failures.flatMap((f) => f.problems).join("\n")).toMatch(problem);
});

test("requests of other clients (another user-agent) are not the provider's and are not checked", async () => {
  const { code, report } = await check([line("POST", SUBNETS, { networkId: "x" }, "python-httpx/0.28")]);
  expect(report).toEqual({ checked: {}, failures: [] });
  expect(code).toBe(0);
});

test("a snapshot policy's bodies, as the provider sends them, are the SDK's; a camelCase schedule field is refused", async () => {
  const POLICIES = "/cloud/v1/lifecycle_policy/:project_id/:region_id";
  const schedule = { type: "cron", hour: "2", minute: "30", max_quantity: 7, retention_time: { days: 7 } };
  const good = await check([
    line("POST", POLICIES, { name: "db", status: "active", action: "volume_snapshot", schedules: [schedule], volume_ids: [POOL_ID] }),
    line("POST", `${POLICIES}/:policy_id/add_schedules`, { schedules: [{ type: "interval", hours: 6, max_quantity: 4 }] }),
    line("POST", `${POLICIES}/:policy_id/remove_schedules`, { schedule_ids: ["a"] }),
    line("PUT", `${POLICIES}/:policy_id/add_volumes_to_policy`, { volume_ids: [POOL_ID] }),
    line("PUT", `${POLICIES}/:policy_id/remove_volumes_from_policy`, { volume_ids: [POOL_ID] }),
  ]);
  expect(good.report.failures).toEqual([]);
  expect(Object.keys(good.report.checked).sort()).toEqual([
    "SnapshotScheduleAddSchedulesParams",
    "SnapshotScheduleAddVolumesParams",
    "SnapshotScheduleCreateParams",
    "SnapshotScheduleRemoveSchedulesParams",
    "SnapshotScheduleRemoveVolumesParams",
  ]);
  const bad = await check([line("POST", `${POLICIES}/:policy_id/add_schedules`, { schedules: [{ type: "cron", maxQuantity: 4 }] })]);
  expect(bad.code).toBe(1);
  expect(bad.report.failures.flatMap((f) => f.problems).join("\n")).toMatch(/maxQuantity/);
});
