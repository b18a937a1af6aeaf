// The emulator speaks the service's dialect: the vendor's official Python SDK (gcore 0.59.0,
// strict response validation, its own `APIKey` auth header) runs every call the emulator
// serves against it over HTTP, seeded with examples/emulator-seed.json, and every answer
// parses as the SDK's model. A user of the vendor's SDK can point it at cims-emulator.
import * as path from "node:path";
import { startEmulator, type RunningEmulator } from "pulumi-cims/emulator";
import { operationsOf } from "../../api/contract";
import { READ_ONLY } from "../../api/contract/read-only";
import { runVendorScript } from "../support/vendor-sdk";

const CALLS = [
  "projects.get",
  "projects.list",
  "regions.get",
  "regions.list",
  "networks.list",
  "networks.get",
  "volumes.list",
  "volumes.get",
  "networks.subnets.create",
  "tasks.poll",
  "tasks.get",
  "networks.subnets.get",
  "networks.subnets.create_and_poll",
  "networks.subnets.list",
  "networks.subnets.update",
  "networks.subnets.delete",
  "tasks.poll (delete_subnet)",
  "tasks.list",
  "load_balancers.pools.get",
  "load_balancers.pools.list",
  "load_balancers.pools.update",
  "tasks.poll (update_lbpool)",
  "load_balancers.pools.health_monitors.create",
  "tasks.poll (create_healthmonitor)",
  "load_balancers.pools.get (with its health monitor and members)",
  "load_balancers.pools.health_monitors.delete",
  "load_balancers.pools.members.create",
  "tasks.poll (create_lbmember)",
  "load_balancers.pools.members.get",
  "load_balancers.pools.members.list",
  "load_balancers.pools.members.update",
  "tasks.poll (update_lbmember)",
  "load_balancers.pools.members.delete",
  "tasks.poll (delete_lbmember)",
  "load_balancers.pools.members.create (public)",
  "tasks.poll (create_lbmember, public)",
  "load_balancers.pools.members.get (public)",
  "load_balancers.pools.members.delete (public)",
  "instances.images.create_from_volume",
  "tasks.poll (create_image)",
  "instances.images.get",
  "baremetal.images.list",
  "instances.images.list",
  "instances.images.update",
  "instances.images.delete",
  "tasks.poll (delete_image)",
  "snapshot_schedules.get",
  "snapshot_schedules.list",
  "snapshot_schedules.update",
  "snapshot_schedules.add_volumes",
  "snapshot_schedules.remove_volumes",
  "snapshot_schedules.create",
  "snapshot_schedules.estimate_max_usage",
  "snapshot_schedules.add_schedules",
  "snapshot_schedules.remove_schedules",
  "snapshot_schedules.remove_volumes (its own policy)",
  "snapshot_schedules.add_volumes (its own policy)",
  "snapshot_schedules.delete",
  "quotas.notification_threshold.get",
  "quotas.notification_threshold.update",
  "quotas.notification_threshold.delete",
];

interface Outcome {
  call: string;
  ok: boolean;
  detail: string;
}

let emulator: RunningEmulator | undefined;
let outcomes = new Map<string, Outcome>();
let stderr = "";

beforeAll(async () => {
  const apiKey = "vendor-sdk-key-6d1f";
  emulator = await startEmulator({ apiKey, seed: path.resolve(__dirname, "../../examples/emulator-seed.json"), taskDurationMs: 300 });
  const result = await runVendorScript("sdk_calls.py", [emulator.url, apiKey]);
  stderr = result.stderr;
  outcomes = new Map(
    result.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Outcome)
      .map((o) => [o.call, o]),
  );
}, 15 * 60_000);

afterAll(async () => {
  await emulator?.close();
});

test.each(CALLS)("%s: answered, and the answer passes the SDK's strict validation", (call) => {
  const outcome = outcomes.get(call);
  if (!outcome) throw new Error(`the SDK script did not report ${call}; its stderr:\n${stderr.slice(-3000)}`);
  expect(outcome).toEqual({ call, ok: true, detail: expect.any(String) });
});

// A read-only record's calls are the SDK's `<records>.list` and `<records>.get` (projects.list).
const READ_ONLY_CALLS = Object.values(READ_ONLY).flatMap((contract) =>
  operationsOf(contract).map((op) => [`${contract.name.toLowerCase()}s.${op.name}`, op.name, op.response] as const),
);

test.each(READ_ONLY_CALLS)("%s answers the model its read-only contract's %s names (%s)", (call, name, model) => {
  const outcome = outcomes.get(call);
  if (!outcome) throw new Error(`the SDK script did not report ${call}; its stderr:\n${stderr.slice(-3000)}`);
  expect(outcome.detail).toBe(name === "list" ? `list[${model}]` : model);
});

test("the SDK authenticated with its own spelling of the scheme, and every call it made was answered 2xx", () => {
  const requests = emulator!.metrics.snapshot().requests;
  const refused = Object.keys(requests).filter((k) => !/ 2\d\d$/.test(k));
  expect(refused).toEqual([]);
  expect(Object.keys(requests).length).toBeGreaterThan(15);
});
