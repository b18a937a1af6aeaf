// A subnet create whose answer is lost: the provider finds the network's subnet with our
// CIDR through the list call and waits for the task that creates it (the record's
// `creator_task_id`). The service may list a subnet while its task still runs (our emulator
// lists records only once their task finishes, so this is scripted here): a task that ends
// FINISHED gives a normal create; one still running at the deadline records the subnet as
// partly created, with the task to wait for.
import { PartialCreateError } from "../../provider/client/errors";
import { closeAllPools } from "../../provider/client/transport";
import { setConfig } from "../../provider/methods/context";
import { subnetMethods } from "../../provider/methods/subnet";
import { startTestServer, type TestServer } from "../support/test-server";

const NET = "8f2e7c1a-3b4d-4e5f-9a6b-7c8d9e0f1a2b";
const SUBNET = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d";
const TASK = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
const inputs = { name: "app", cidr: "10.9.0.0/24", networkId: NET, projectId: 1, regionId: 1, timeouts: { create: 2 } };

let server: TestServer | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
});

async function serve(taskState: string): Promise<TestServer> {
  const record = {
    id: SUBNET,
    name: "app",
    cidr: "10.9.0.0/24",
    network_id: NET,
    ip_version: 4,
    enable_dhcp: true,
    gateway_ip: "10.9.0.1",
    dns_nameservers: [],
    host_routes: [],
    creator_task_id: TASK,
    tags: [{ key: "creator_task_id", value: TASK, read_only: true }],
  };
  server = await startTestServer((req) => {
    if (req.method === "POST") return { destroy: true }; // the service acted; the answer is lost
    if (req.url.startsWith(`/cloud/v1/subnets/1/1?`))
      return { body: { count: 1, results: [{ ...record, cidr: "10.8.0.0/24", id: "x" }, record] } };
    if (req.url === `/cloud/v1/tasks/${TASK}`) {
      return { body: { id: TASK, state: taskState, task_type: "create_subnet", created_resources: { subnets: [SUBNET] } } };
    }
    if (req.url === `/cloud/v1/subnets/1/1/${SUBNET}`) return { body: record };
    return { status: 404, body: { message: "not found" } };
  });
  setConfig((key) => ({ "cims:apiUrl": server?.url, "cims:apiKey": "unit-test-key-0123456789", "cims:maxRetries": "0" })[key]);
  return server;
}

test("found by cidr with its task FINISHED: the create returns that subnet and posts once", async () => {
  const s = await serve("FINISHED");
  const result = await subnetMethods.create(inputs);
  expect(result.id).toBe(SUBNET);
  expect(result.outs).toMatchObject({ cidr: "10.9.0.0/24", taskIds: [TASK] });
  expect(s.requests.filter((r) => r.method === "POST")).toHaveLength(1);
});

test("found by cidr while its task still runs past the deadline: recorded as partly created, the task pending", async () => {
  await serve("RUNNING");
  const err = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PartialCreateError);
  expect(err).toMatchObject({ id: SUBNET, properties: { pendingTaskIds: [TASK], taskIds: [TASK] } });
  expect((err as Error).message).toMatch(new RegExp(`was created \\(id ${SUBNET}, task\\(s\\) ${TASK}\\) but the create did not complete`));
});
