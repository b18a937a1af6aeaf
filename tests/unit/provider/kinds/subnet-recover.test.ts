// A Subnet create takes only what is its own, against a scripted service:
// - no task id came back (the POST's answer was lost): only a subnet carrying the create's
//   mark (a random tag value its POST carried) is the one it made; it waits for the task that
//   creates it (the record's `creator_task_id`), records it as partly created when that task
//   outlasts the deadline, and removes the mark. Another team's subnet with the same name and
//   CIDR, made while the search runs, is never taken; the search lasts while a create task of
//   the scope that started since the POST still runs, and gives up at once when none does.
// - its task ids are known but the wait ended before the tasks did: only a subnet whose
//   creator is one of its tasks is taken.
// - a task that ended in ERROR with nothing made is a plain failure: no looking, no advice.
// - at preview (check), the record a replacement replaces is no obstacle to it, another
//   team's is; two subnets of one program that overlap fail, naming both.
// (The emulator lists records only once their task finishes, so the service that lists a
// subnet while its task still runs is scripted here.) On virtual time (tests/support/virtual-clock.ts):
// the search's looks two seconds apart and its grace take none of the test's.
import { TaskFailedError } from "../../../../provider/client/errors";
import { PartialCreateError } from "../../../../provider/methods/resource-errors";
import { CREATE_MARK_TAG } from "../../../../provider/methods/mark";
import { RECOVER_GRACE_MS } from "../../../../provider/methods/evidence";
import { closeAllPools } from "../../../../provider/client/transport";
import { useClock } from "../../../../provider/client/clock";
import { forgetHoldings } from "../../../../provider/methods/holdings";
import { Subnet } from "../../../../provider/kinds/subnet";
import { configureForScripted } from "../../../support/provider-config";
import { type RecordedRequest, type Reply, startTestServer, type TestServer } from "../../../support/test-server";
import { VirtualClock } from "../../../support/virtual-clock";

const NET = "8f2e7c1a-3b4d-4e5f-9a6b-7c8d9e0f1a2b";
const SUBNET = "2b3c4d5e-6f70-4a1b-8c2d-3e4f5a6b7c8d";
const TASK = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d";
const OTHER_TASK = "0f0e0d0c-0b0a-4908-8706-050403020100";
const inputs = { name: "app", cidr: "10.9.0.0/24", networkId: NET, projectId: 1, regionId: 1, timeouts: { create: 2 } };

const record = (over: Record<string, unknown> = {}, userTags: Record<string, string> = {}) => ({
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
  tags: [
    ...Object.entries(userTags).map(([key, value]) => ({ key, value, read_only: false })),
    { key: "creator_task_id", value: String(over.creator_task_id ?? TASK), read_only: true },
  ],
  ...over,
});
/** Our subnet as the service holds it: with the mark the POST carried. */
const marked = (mark: string, over: Record<string, unknown> = {}) => record(over, { [CREATE_MARK_TAG]: mark });
const unrelated = { ...record(), id: "3c4d5e6f-7081-4b2c-9d3e-4f5a6b7c8d9e", cidr: "10.8.0.0/24", name: "other" };
const runningCreate = { id: OTHER_TASK, state: "RUNNING", task_type: "create_subnet", created_on: new Date().toISOString().slice(0, 19) };

let server: TestServer | undefined;
let clock: VirtualClock;
let realClock: () => void;
beforeEach(() => {
  clock = new VirtualClock();
  realClock = useClock(clock);
});
afterEach(async () => {
  realClock();
  clock.close();
  await closeAllPools();
  await server?.close();
});

/**
 * A service whose network lists `before` until the POST arrives and `after` from then on;
 * the POST is answered by `post`; the task and the subnet are read as given.
 */
async function serve(opts: {
  before?: object[];
  /** The network's subnets after the POST, given the mark it carried and the lists taken since. */
  after: object[] | ((mark: string, lists: number) => object[]);
  post: Reply;
  task?: { state: string; created?: string[]; error?: string };
  /** The scope's create tasks still running, by the number of task lists taken so far. */
  running?: (taskLists: number) => object[];
}): Promise<TestServer> {
  let mark: string | undefined;
  let lists = 0;
  let taskLists = 0;
  server = await startTestServer((req: RecordedRequest) => {
    if (req.method === "POST") {
      mark = (JSON.parse(req.body) as { tags: Record<string, string> }).tags[CREATE_MARK_TAG];
      return opts.post;
    }
    if (req.url.startsWith(`/cloud/v1/subnets/1/1?`)) {
      const after = typeof opts.after === "function" ? opts.after(mark!, lists++) : opts.after;
      const results = mark !== undefined ? after : (opts.before ?? [unrelated]);
      return { body: { count: results.length, results } };
    }
    if (req.url.startsWith("/cloud/v1/tasks?")) {
      const results = new URL(req.url, "http://x").searchParams.get("state") === "RUNNING" ? (opts.running?.(taskLists++) ?? []) : [];
      return { body: { count: results.length, results } };
    }
    if (req.method === "PATCH" && req.url === `/cloud/v1/subnets/1/1/${SUBNET}`) return { body: record() };
    if (req.url === `/cloud/v1/tasks/${TASK}` && opts.task) {
      const { state, created = [], error } = opts.task;
      return { body: { id: TASK, state, task_type: "create_subnet", created_resources: { subnets: created }, error } };
    }
    if (req.url === `/cloud/v1/subnets/1/1/${SUBNET}`) return { body: mark === undefined ? record() : marked(mark) };
    return { status: 404, body: { exception_class: "NotFoundError", message: "not found" } };
  });
  configureForScripted(server.url);
  return server;
}

const lost: Reply = { destroy: true }; // the service acted; the answer never came
const posts = (s: TestServer) => s.requests.filter((r) => r.method === "POST").length;
const listsAfterPost = (s: TestServer) =>
  s.requests.slice(s.requests.findIndex((r) => r.method === "POST")).filter((r) => r.url.startsWith("/cloud/v1/subnets/1/1?")).length;

const patches = (s: TestServer) => s.requests.filter((r) => r.method === "PATCH").map((r) => JSON.parse(r.body) as unknown);

test("answer lost: the subnet carrying the create's mark is the one it made; its task FINISHED: created, one POST, the mark removed", async () => {
  const s = await serve({ after: (mark) => [unrelated, marked(mark)], post: lost, task: { state: "FINISHED", created: [SUBNET] } });
  const result = await Subnet.methods.create(inputs);
  expect(result.id).toBe(SUBNET);
  expect(result.outs).toMatchObject({ cidr: "10.9.0.0/24", taskIds: [TASK], tags: {} });
  expect(posts(s)).toBe(1);
  expect(patches(s)).toEqual([{ tags: { [CREATE_MARK_TAG]: null } }]);
});

test("a POST answered 2xx with no task ids (`{}`): the service took it, so the subnet carrying the mark is found and recorded", async () => {
  const s = await serve({ after: (mark) => [unrelated, marked(mark)], post: { body: {} }, task: { state: "FINISHED", created: [SUBNET] } });
  const result = await Subnet.methods.create(inputs);
  expect(result.id).toBe(SUBNET);
  expect(result.outs).toMatchObject({ cidr: "10.9.0.0/24", taskIds: [TASK] });
  expect(posts(s)).toBe(1);
});

test("the mark a create carries is new for every create, and no output shows it", async () => {
  const s = await serve({ after: [], post: { body: { tasks: [TASK] } }, task: { state: "FINISHED", created: [SUBNET] } });
  const first = await Subnet.methods.create({ ...inputs, tags: { team: "a" } });
  await Subnet.methods.create({ ...inputs, tags: { team: "a" } });
  const marks = s.requests.filter((r) => r.method === "POST").map((r) => (JSON.parse(r.body) as { tags: Record<string, string> }).tags);
  expect(marks).toHaveLength(2);
  expect(marks[0].team).toBe("a");
  expect(marks[0][CREATE_MARK_TAG]).toMatch(/^[0-9a-f-]{36}$/);
  expect(marks[0][CREATE_MARK_TAG]).not.toBe(marks[1][CREATE_MARK_TAG]);
  expect(JSON.stringify(first.outs)).not.toContain(CREATE_MARK_TAG);
});

test("answer lost, the marked subnet's task still running past the deadline: recorded as partly created, the task pending", async () => {
  await serve({ after: (mark) => [marked(mark)], post: lost, task: { state: "RUNNING" } });
  const err = await Subnet.methods.create(inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PartialCreateError);
  expect(err).toMatchObject({ id: SUBNET, properties: { __pendingTaskIds: [TASK], taskIds: [TASK] } });
  expect((err as Error).message).toMatch(new RegExp(`was created \\(id ${SUBNET}, task\\(s\\) ${TASK}\\) but the create did not complete`));
});

test("answer lost: another team's subnet with the same name and CIDR, made while the search runs, is not taken", async () => {
  // Their create task runs for the first two looks; then their subnet is listed: same name, same CIDR.
  const theirs = record({ id: "4d5e6f70-8192-4a3b-8c4d-5e6f70819203", creator_task_id: OTHER_TASK });
  const s = await serve({
    after: (_mark, lists) => (lists < 2 ? [] : [theirs]),
    post: lost,
    running: (n) => (n < 2 ? [runningCreate] : []),
  });
  const err = await Subnet.methods.create({ ...inputs, timeouts: { create: 60 } }).catch((e: unknown) => e);
  expect(err).not.toBeInstanceOf(PartialCreateError);
  expect((err as Error).message).toContain(`The service may have created Subnet "app"; it is not in the stack`);
  expect((err as Error).message).toMatch(new RegExp(`It would carry the tag ${CREATE_MARK_TAG}: [0-9a-f-]{36}`));
  expect(listsAfterPost(s)).toBeGreaterThanOrEqual(3);
  expect(posts(s)).toBe(1);
  expect(patches(s)).toEqual([]);
}, 40_000);

test("answer lost, no create task of the scope running since the POST and nothing marked: it gives up after the grace, not at the deadline", async () => {
  const s = await serve({ after: [unrelated], post: lost });
  const started = clock.now();
  const err = await Subnet.methods.create({ ...inputs, timeouts: { create: 600 } }).catch((e: unknown) => e);
  expect((err as Error).message).toContain(`The service may have created Subnet "app"; it is not in the stack`);
  expect(clock.now() - started).toBeGreaterThanOrEqual(RECOVER_GRACE_MS);
  expect(clock.now() - started).toBeLessThan(RECOVER_GRACE_MS + 10_000);
  expect(listsAfterPost(s)).toBeGreaterThan(1);
}, 40_000);

test("answer lost to a POST the service acts on only later (a timed-out request still on its way): found within the grace", async () => {
  // Listed from the fourth look on (about 6 s after the answer was lost), no task seen running before.
  const s = await serve({
    after: (mark, lists) => (lists < 3 ? [] : [marked(mark)]),
    post: lost,
    task: { state: "FINISHED", created: [SUBNET] },
  });
  const result = await Subnet.methods.create({ ...inputs, timeouts: { create: 600 } });
  expect(result.id).toBe(SUBNET);
  expect(posts(s)).toBe(1);
}, 40_000);

test("answer lost: two creates of one program with the same name and CIDR each take only the subnet carrying their own mark", async () => {
  const SECOND = "5e6f7081-92a3-4b4c-9d5e-6f7081920314";
  const SECOND_TASK = "1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9";
  const marks: string[] = [];
  server = await startTestServer((req: RecordedRequest) => {
    if (req.method === "POST") {
      marks.push((JSON.parse(req.body) as { tags: Record<string, string> }).tags[CREATE_MARK_TAG]);
      return lost;
    }
    if (req.url.startsWith(`/cloud/v1/subnets/1/1?`)) {
      // The second create's subnet is listed first: the first create must not take it.
      const results = marks.length < 2 ? [] : [marked(marks[1], { id: SECOND, creator_task_id: SECOND_TASK }), marked(marks[0])];
      return { body: { count: results.length, results } };
    }
    if (req.url.startsWith("/cloud/v1/tasks?")) return { body: { count: 1, results: marks.length < 2 ? [runningCreate] : [] } };
    if (req.url.startsWith("/cloud/v1/tasks/")) {
      const id = req.url.split("/").pop();
      return { body: { id, state: "FINISHED", task_type: "create_subnet", created_resources: { subnets: [] } } };
    }
    if (req.url === `/cloud/v1/subnets/1/1/${SUBNET}`) return { body: record() };
    if (req.url === `/cloud/v1/subnets/1/1/${SECOND}`) return { body: record({ id: SECOND, creator_task_id: SECOND_TASK }) };
    return { status: 404, body: { exception_class: "NotFoundError", message: "not found" } };
  });
  configureForScripted(server.url);
  const first = Subnet.methods.create({ ...inputs, timeouts: { create: 60 } });
  await clock.sleep(300);
  const second = Subnet.methods.create({ ...inputs, timeouts: { create: 60 } });
  const ids = (await Promise.all([first, second])).map((r) => r.id);
  expect(ids).toEqual([SUBNET, SECOND]);
});

test("task ids known, the wait ended first: only a subnet made by one of its tasks is taken", async () => {
  const theirs = record({ creator_task_id: OTHER_TASK });
  await serve({ after: [theirs], post: { body: { tasks: [TASK] } }, task: { state: "RUNNING" } });
  const notOurs = await Subnet.methods.create(inputs).catch((e: unknown) => e);
  expect(notOurs).not.toBeInstanceOf(PartialCreateError);
  expect((notOurs as Error).message).toMatch(
    /timed out after 2s.*The service may have created Subnet "app"; it is not in the stack\. Its task\(s\)/,
  );

  await server!.close();
  await serve({ after: [record()], post: { body: { tasks: [TASK] } }, task: { state: "RUNNING" } });
  const ours = await Subnet.methods.create(inputs).catch((e: unknown) => e);
  expect(ours).toBeInstanceOf(PartialCreateError);
  expect(ours).toMatchObject({ id: SUBNET, properties: { __pendingTaskIds: [TASK] } });
});

test("a task that ended in ERROR, having made nothing: a plain failure with the service's message, no looking, no advice", async () => {
  // Somebody's subnet with the same cidr appears on the network; it is not looked at.
  const s = await serve({
    after: [record({ name: "team-b-db", creator_task_id: OTHER_TASK })],
    post: { body: { tasks: [TASK] } },
    task: { state: "ERROR", error: "Quota exceeded: subnet_count" },
  });
  const err = await Subnet.methods.create(inputs).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TaskFailedError);
  expect((err as Error).message).toBe(`Subnet "app": task ${TASK} (create_subnet) failed: Quota exceeded: subnet_count`);
  expect(listsAfterPost(s)).toBe(0);
});

test("a CIDR that overlaps a subnet already on the network fails before the POST, naming that subnet", async () => {
  const theirs = record({ id: "5d6e7f80-9a1b-4c2d-8e3f-405162738495", name: "team-b-db", cidr: "10.9.0.0/16" });
  const s = await serve({ before: [theirs], after: [theirs], post: { body: { tasks: [TASK] } } });
  const err = await Subnet.methods.create(inputs).catch((e: unknown) => e);
  expect((err as Error).message).toContain(
    `cidr: 10.9.0.0/24 overlaps subnet "team-b-db" (5d6e7f80-9a1b-4c2d-8e3f-405162738495, 10.9.0.0/16) on network ${NET}`,
  );
  expect((err as Error).message).toContain(`importId: "5d6e7f80-9a1b-4c2d-8e3f-405162738495"`);
  expect(posts(s)).toBe(0);
});

describe("check at preview: what the program and the network already hold", () => {
  beforeEach(forgetHoldings);
  const theirs = record({
    id: "5d6e7f80-9a1b-4c2d-8e3f-405162738495",
    name: "team-b-db",
    cidr: "10.9.0.0/16",
    creator_task_id: OTHER_TASK,
  });
  /** check() with old inputs, the diff, and the check the engine makes again after a diff that replaces. */
  async function replaced(name: string): Promise<Awaited<ReturnType<typeof Subnet.methods.check>>> {
    const olds = (await Subnet.methods.check({}, inputs)).inputs;
    forgetHoldings(); // the old inputs were checked in an earlier deployment
    const news = (await Subnet.methods.check(olds, { ...inputs, name })).inputs;
    expect((await Subnet.methods.diff(SUBNET, olds, news)).deleteBeforeReplace).toBe(true);
    return Subnet.methods.check({}, { ...inputs, name });
  }

  test("a replacement after its diff (replaceOnChanges: name): its own record is no obstacle; another team's overlapping one is", async () => {
    await serve({ before: [record()], after: [], post: lost });
    expect((await replaced("app2")).failures).toEqual([]);
    await server!.close();
    await serve({ before: [record(), theirs], after: [], post: lost });
    const failures = (await replaced("app3")).failures ?? [];
    expect(failures.map((f) => f.reason)).toEqual([
      expect.stringContaining(`overlaps subnet "team-b-db" (${String(theirs.id)}, 10.9.0.0/16)`),
    ]);
  });

  test("up --replace (no diff): the subnet exactly as declared passes the preview; the create refuses it before its POST, saying what to set", async () => {
    const s = await serve({ before: [record()], after: [], post: lost });
    const checked = await Subnet.methods.check({}, inputs);
    expect(checked.failures).toEqual([]);
    const err = await Subnet.methods.create(checked.inputs as typeof inputs).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`overlaps subnet "app" (${SUBNET}, 10.9.0.0/24)`);
    expect((err as Error).message).toContain("set the resource option `deleteBeforeReplace: true`");
    expect(posts(s)).toBe(0);
  });

  test("up --replace of a drifted subnet (a tag another team added): its own record is no obstacle at preview; the create still refuses it while it is there", async () => {
    const s = await serve({ before: [record({}, { owner: "team-b" })], after: [], post: lost });
    const checked = await Subnet.methods.check({}, inputs);
    expect(checked.failures).toEqual([]);
    const err = await Subnet.methods.create(checked.inputs as typeof inputs).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`overlaps subnet "app" (${SUBNET}, 10.9.0.0/24)`);
    expect((err as Error).message).toContain("set the resource option `deleteBeforeReplace: true`");
    expect(posts(s)).toBe(0);
  });

  test("up --replace (no diff): another team's subnet of another name at the same CIDR, or at an overlapping one, still fails the preview", async () => {
    const sameCidr = record({ id: theirs.id, name: "team-b-db", creator_task_id: OTHER_TASK });
    await serve({ before: [sameCidr], after: [], post: lost });
    expect((await Subnet.methods.check({}, inputs)).failures?.map((f) => f.reason)).toEqual([
      expect.stringContaining(`overlaps subnet "team-b-db" (${String(theirs.id)}, 10.9.0.0/24)`),
    ]);
    await server!.close();
    forgetHoldings(); // another deployment
    await serve({ before: [record({}, { owner: "team-b" }), theirs], after: [], post: lost });
    expect((await Subnet.methods.check({}, inputs)).failures?.map((f) => f.reason)).toEqual([
      expect.stringContaining(`overlaps subnet "team-b-db" (${String(theirs.id)}, 10.9.0.0/16)`),
    ]);
  });

  test("a replacement whose diff shows no change (a partly created resource, a pending replacement): its own record, renamed by hand, is no obstacle", async () => {
    await serve({ before: [record({ name: "renamed-by-hand" })], after: [], post: lost });
    const olds = (await Subnet.methods.check({}, inputs)).inputs!;
    forgetHoldings(); // the old inputs were checked in an earlier deployment
    const news = (await Subnet.methods.check(olds, inputs)).inputs!;
    const diff = await Subnet.methods.diff(SUBNET, olds, news);
    expect(diff).toMatchObject({ changes: false, deleteBeforeReplace: true });
    expect((await Subnet.methods.check({}, inputs)).failures).toEqual([]);
  });

  test("a subnet updated or replaced with its CIDR unchanged still holds it: a new subnet of the program overlapping it fails, naming both", async () => {
    await serve({ before: [record()], after: [], post: lost });
    expect((await replaced("app2")).failures).toEqual([]);
    const db = { ...inputs, name: "db", cidr: "10.9.0.0/25" };
    expect((await Subnet.methods.check({}, db)).failures?.map((f) => f.reason)).toEqual([
      expect.stringContaining('cidr: Subnet "db" (10.9.0.0/25) and Subnet "app2" (10.9.0.0/24), both of this program, clash'),
    ]);
  });

  test("two subnets of one program that overlap on one network: the second fails, naming both; elsewhere they would not", async () => {
    await serve({ before: [], after: [], post: lost });
    expect((await Subnet.methods.check({}, inputs)).failures).toEqual([]);
    const other = { ...inputs, name: "db", cidr: "10.9.0.128/25" };
    expect((await Subnet.methods.check({}, { ...other, networkId: "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d" })).failures).toEqual([]);
    expect((await Subnet.methods.check({}, other)).failures).toEqual([
      {
        property: "cidr",
        reason:
          `cidr: Subnet "db" (10.9.0.128/25) and Subnet "app" (10.9.0.0/24), both of this program, clash on network ${NET}: ` +
          "the service refuses overlapping subnets on one network, so nothing was written. Give one of them another cidr",
      },
    ]);
  });
});
