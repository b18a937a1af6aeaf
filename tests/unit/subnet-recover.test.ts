// A Subnet create takes only what is its own (design.md rule 9), against a scripted service:
// - no task id came back (the POST's answer was lost): a subnet absent from the network's list
//   taken before the POST, holding the POST's cidr and name, is the one it made; it waits for
//   the task that creates it (the record's `creator_task_id`), and records it as partly
//   created when that task outlasts the deadline. A subnet with our cidr but another name
//   (somebody else's, made meanwhile) is never taken.
// - its task ids are known but the wait ended before the tasks did: only a subnet whose
//   creator is one of its tasks is taken.
// - a task that ended in ERROR with nothing made is a plain failure: no looking, no advice.
// (The emulator lists records only once their task finishes, so the service that lists a
// subnet while its task still runs is scripted here.)
import { TaskFailedError } from "../../provider/client/errors";
import { PartialCreateError } from "../../provider/methods/errors";
import { closeAllPools } from "../../provider/client/transport";
import { setConfig } from "../../provider/methods/context";
import { subnetMethods } from "../../provider/methods/subnet";
import { type RecordedRequest, type Reply, startTestServer, type TestServer } from "../support/test-server";

const NET = "8f2e7c1a-3b4d-4e5f-9a6b-7c8d9e0f1a2b";
const SUBNET = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d";
const TASK = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
const OTHER_TASK = "0f0e0d0c-0b0a-4908-8706-050403020100";
const inputs = { name: "app", cidr: "10.9.0.0/24", networkId: NET, projectId: 1, regionId: 1, timeouts: { create: 2 } };

const record = (over: Record<string, unknown> = {}) => ({
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
  tags: [{ key: "creator_task_id", value: String(over.creator_task_id ?? TASK), read_only: true }],
  ...over,
});
const unrelated = { ...record(), id: "3c4d5e6f-7081-4b2c-9d3e-4f5a6b7c8d9e", cidr: "10.8.0.0/24", name: "other" };

let server: TestServer | undefined;
afterEach(async () => {
  await closeAllPools();
  await server?.close();
});

/**
 * A service whose network lists `before` until the POST arrives and `after` from then on;
 * the POST is answered by `post`; the task and the subnet are read as given.
 */
async function serve(opts: {
  before?: object[];
  after: object[];
  post: Reply;
  task?: { state: string; created?: string[]; error?: string };
}): Promise<TestServer> {
  let posted = false;
  server = await startTestServer((req: RecordedRequest) => {
    if (req.method === "POST") {
      posted = true;
      return opts.post;
    }
    if (req.url.startsWith(`/cloud/v1/subnets/1/1?`)) {
      const results = posted ? opts.after : (opts.before ?? [unrelated]);
      return { body: { count: results.length, results } };
    }
    if (req.url === `/cloud/v1/tasks/${TASK}` && opts.task) {
      const { state, created = [], error } = opts.task;
      return { body: { id: TASK, state, task_type: "create_subnet", created_resources: { subnets: created }, error } };
    }
    if (req.url === `/cloud/v1/subnets/1/1/${SUBNET}`) return { body: record() };
    return { status: 404, body: { exception_class: "NotFoundError", message: "not found" } };
  });
  // The credential probe has its own tests (credentials.test.ts); these count the create's requests.
  setConfig(
    (key) =>
      ({
        "cims:apiUrl": server?.url,
        "cims:apiKey": "unit-test-key-0123456789",
        "cims:maxRetries": "0",
        "cims:skipCredentialsValidation": "true",
      })[key],
  );
  return server;
}

const lost: Reply = { destroy: true }; // the service acted; the answer never came
const posts = (s: TestServer) => s.requests.filter((r) => r.method === "POST").length;
const listsAfterPost = (s: TestServer) =>
  s.requests.slice(s.requests.findIndex((r) => r.method === "POST")).filter((r) => r.url.startsWith("/cloud/v1/subnets/1/1?")).length;

test("answer lost: the subnet absent before the POST, with its cidr and name, is the one it made; its task FINISHED: created, one POST", async () => {
  const s = await serve({ after: [unrelated, record()], post: lost, task: { state: "FINISHED", created: [SUBNET] } });
  const result = await subnetMethods.create(inputs);
  expect(result.id).toBe(SUBNET);
  expect(result.outs).toMatchObject({ cidr: "10.9.0.0/24", taskIds: [TASK] });
  expect(posts(s)).toBe(1);
});

test("answer lost, the found subnet's task still running past the deadline: recorded as partly created, the task pending", async () => {
  await serve({ after: [record()], post: lost, task: { state: "RUNNING" } });
  const err = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PartialCreateError);
  expect(err).toMatchObject({ id: SUBNET, properties: { pendingTaskIds: [TASK], taskIds: [TASK] } });
  expect((err as Error).message).toMatch(new RegExp(`was created \\(id ${SUBNET}, task\\(s\\) ${TASK}\\) but the create did not complete`));
});

test("answer lost: a subnet with its cidr but another name, made meanwhile by somebody else, is not taken", async () => {
  const theirs = record({ name: "team-b-db", creator_task_id: OTHER_TASK });
  const s = await serve({ after: [theirs], post: lost, task: { state: "FINISHED" } });
  const err = await subnetMethods.create({ ...inputs, timeouts: { create: 3 } }).catch((e: unknown) => e);
  expect(err).not.toBeInstanceOf(PartialCreateError);
  expect((err as Error).message).toContain(`The service may have created Subnet "app"; it is not in the stack`);
  expect(posts(s)).toBe(1);
});

test("task ids known, the wait ended first: only a subnet made by one of its tasks is taken", async () => {
  const theirs = record({ creator_task_id: OTHER_TASK });
  await serve({ after: [theirs], post: { body: { tasks: [TASK] } }, task: { state: "RUNNING" } });
  const notOurs = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect(notOurs).not.toBeInstanceOf(PartialCreateError);
  expect((notOurs as Error).message).toMatch(
    /timed out after 2s.*The service may have created Subnet "app"; it is not in the stack\. Its task\(s\)/,
  );

  await server!.close();
  await serve({ after: [record()], post: { body: { tasks: [TASK] } }, task: { state: "RUNNING" } });
  const ours = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect(ours).toBeInstanceOf(PartialCreateError);
  expect(ours).toMatchObject({ id: SUBNET, properties: { pendingTaskIds: [TASK] } });
});

test("a task that ended in ERROR, having made nothing: a plain failure with the service's message, no looking, no advice", async () => {
  // Somebody's subnet with the same cidr appears on the network; it is not looked at.
  const s = await serve({
    after: [record({ name: "team-b-db", creator_task_id: OTHER_TASK })],
    post: { body: { tasks: [TASK] } },
    task: { state: "ERROR", error: "Quota exceeded: subnet_count" },
  });
  const err = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TaskFailedError);
  expect((err as Error).message).toBe(`Subnet "app": task ${TASK} (create_subnet) failed: Quota exceeded: subnet_count`);
  expect(listsAfterPost(s)).toBe(0);
});

test("a CIDR that overlaps a subnet already on the network fails before the POST, naming that subnet", async () => {
  const theirs = record({ id: "5d6e7f80-9a1b-4c2d-8e3f-405162738495", name: "team-b-db", cidr: "10.9.0.0/16" });
  const s = await serve({ before: [theirs], after: [theirs], post: { body: { tasks: [TASK] } } });
  const err = await subnetMethods.create(inputs).catch((e: unknown) => e);
  expect((err as Error).message).toContain(
    `cidr: 10.9.0.0/24 overlaps subnet "team-b-db" (5d6e7f80-9a1b-4c2d-8e3f-405162738495, 10.9.0.0/16) on network ${NET}`,
  );
  expect((err as Error).message).toContain(`importId: "5d6e7f80-9a1b-4c2d-8e3f-405162738495"`);
  expect(posts(s)).toBe(0);
});
