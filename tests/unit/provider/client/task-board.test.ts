// Task waits through the task list: a scope's running tasks answered by one list request per
// look, each ended task read once, or none where the list reaches back to our tasks it saw
// running (`from_timestamp`) and so shows them ended; other teams' tasks in the list are not
// ours; a service without the list falls back to a read per task. On virtual time (tests/support/virtual-clock.ts):
// a task's length, a read's latency and the gap between lists are exact, whatever the load.
import { CimsClient, closeAllPools, listAll } from "../../../../provider/client";
import { useClock } from "../../../../provider/client/clock";
import { LIST_GAP_MS, listGapMs, TaskBoard, type TaskScope } from "../../../../provider/client/task-board";
import { DurationHints } from "../../../../provider/client/task-hints";
import { startTestServer, type TestServer } from "../../../support/test-server";
import { VirtualClock } from "../../../support/virtual-clock";

// The waits run on the test's clock, but their requests go to a real server on loopback: tens of
// them per test, which a loaded machine has taken past jest's default 5 s.
jest.setTimeout(60_000);

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
  server = undefined;
});

/**
 * A service whose tasks run until their end time; it counts the task list's and each task's
 * reads. `readMs`: how long a task's read takes to answer (what it answers is of when it came).
 */
async function service(opts: {
  ends: Record<string, number>;
  others?: number;
  noList?: boolean;
  pacedRate?: number;
  readMs?: number;
  /** The list honours `from_timestamp` (tasks of every state created since), as the vendor's does; `starts`: each task's creation. */
  from?: { starts: Record<string, number> };
}) {
  const counts = { list: 0, gets: 0, listQueries: [] as string[], listTimes: [] as number[] };
  const stateOf = (id: string) => (clock.now() >= opts.ends[id] ? "FINISHED" : "RUNNING");
  // As the service writes it: UTC to the second, no zone.
  const createdOn = (id: string) => new Date(opts.from?.starts[id] ?? 0).toISOString().slice(0, 19);
  server = await startTestServer(async (req) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname === "/cloud/v1/tasks") {
      counts.list++;
      counts.listQueries.push(url.search);
      counts.listTimes.push(clock.now());
      if (opts.noList) return { status: 404, body: { exception_class: "NotFound", message: "Not found." } };
      const states = url.searchParams.getAll("state");
      const from = url.searchParams.get("from_timestamp");
      // A task is listed from its creation on: one made later is in no list before then.
      const made = Object.keys(opts.ends).filter((id) => (opts.from?.starts[id] ?? -Infinity) <= clock.now());
      const ours = made.map((id) => ({
        id,
        state: stateOf(id),
        task_type: "create_subnet",
        created_on: createdOn(id),
        created_resources: stateOf(id) === "FINISHED" ? { subnets: [`s-${id}`] } : null,
      }));
      // Other teams' tasks of the scope: always running, never ours.
      const theirs = Array.from({ length: opts.others ?? 0 }, (_, i) => ({ id: `theirs-${i}`, state: "RUNNING" }));
      const results = [...ours, ...theirs].filter((t) =>
        opts.from && from !== null
          ? "created_on" in t && Date.parse(`${t.created_on}Z`) >= Date.parse(`${from}Z`)
          : states.includes(t.state),
      );
      return { body: { count: results.length, results } };
    }
    const id = url.pathname.split("/").pop()!;
    counts.gets++;
    const state = stateOf(id);
    if (opts.readMs) await clock.serving(opts.readMs);
    return { body: { id, state, task_type: "create_subnet", created_resources: { subnets: [`s-${id}`] } } };
  });
  const board = boardOf(() => client, opts);
  const client: CimsClient = new CimsClient({
    apiUrl: new URL(server.url),
    apiKey: "k-board",
    maxRetries: 1,
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 5_000,
    taskPath: "/cloud/v1/tasks/{task_id}",
    taskBoard: board,
  });
  return { client, counts, board };
}

function boardOf(client: () => CimsClient, opts: { pacedRate?: number; from?: unknown }): TaskBoard {
  return new TaskBoard(
    (scope: TaskScope, from?: string): Promise<Array<Record<string, unknown>>> =>
      listAll(client(), "/cloud/v1/tasks", {
        project_id: scope.projectId,
        region_id: scope.regionId,
        ...(from === undefined ? { state: ["NEW", "RUNNING"] } : { from_timestamp: from }),
      }),
    clock,
    () => opts.pacedRate,
    opts.from !== undefined,
  );
}

const scope = { projectId: 1, regionId: 2 };
const wait = (client: CimsClient, ids: string[], withScope = true) =>
  client.waitForTasks(ids, { deadline: clock.now() + 20_000, timeoutSeconds: 20, ...(withScope ? { scope } : {}) });

test("30 tasks of 1.5 s: about one request per task, each ended task read once, the list asked once per look", async () => {
  const start = clock.now();
  const ends = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`t${i}`, start + 1_500 + i * 10]));
  const { client, counts } = await service({ ends, others: 50 });
  const tasks = await wait(client, Object.keys(ends));
  expect(tasks.map((t) => t.created_resources?.subnets)).toEqual(Object.keys(ends).map((id) => [`s-${id}`]));
  expect(counts.gets).toBeGreaterThanOrEqual(30);
  expect(counts.gets).toBeLessThanOrEqual(36);
  expect((counts.gets + counts.list) / 30).toBeLessThanOrEqual(1.5);
  expect(counts.listQueries[0]).toBe("?project_id=1&region_id=2&state=NEW&state=RUNNING&limit=1000&offset=0");
  // The last task ends at 1.79 s, and is seen within one look's interval (1 s at most, +10%
  // jitter) and the wait for the scope's next list (200 ms) of its end.
  expect(clock.elapsed()).toBeGreaterThanOrEqual(1_790);
  expect(clock.elapsed()).toBeLessThanOrEqual(1_790 + 1_100 + 200);
});

test("a list that reaches back to our oldest task seen running shows its end: 50 waits of 2 s read no task by id", async () => {
  const start = clock.now();
  const starts = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, start + i * 10]));
  const ends = Object.fromEntries(Object.entries(starts).map(([id, at], i) => [id, at + 1_800 + ((i * 37) % 50) * 8]));
  const { client, counts, board } = await service({ ends, others: 20, from: { starts } });
  // Hints learned already: without the list's ends, each wait would read its task by id at the hint's end.
  const hints = new DurationHints();
  hints.learn("create_subnet", { below: 1_700, by: 2_300 });
  const waits = Object.keys(ends).map((id, i) =>
    clock.sleep(i * 10).then(() => client.waitForTasks([id], { deadline: clock.now() + 20_000, timeoutSeconds: 20, scope, hints })),
  );
  const done = await Promise.all(waits);
  expect(done.map(([t]) => t.created_resources?.subnets)).toEqual(Object.keys(ends).map((id) => [`s-${id}`]));
  expect(counts.gets).toBe(0);
  expect(counts.list).toBeLessThanOrEqual(20);
  // The first list knows no task of ours; the next ones reach back to the oldest seen running, by the service's own time.
  expect(counts.listQueries[0]).toBe("?project_id=1&region_id=2&state=NEW&state=RUNNING&limit=1000&offset=0");
  expect(counts.listQueries[1]).toBe(
    `?project_id=1&region_id=2&from_timestamp=${encodeURIComponent(new Date(start).toISOString().slice(0, 19))}&limit=1000&offset=0`,
  );
  // Every task seen ended: none is followed any more, so the lists reach back no longer.
  expect(Object.keys(ends).filter((id) => board.showsEnd(scope, id))).toEqual([]);
  // All within the last end (2.19 s) and a look's interval after it.
  expect(clock.elapsed()).toBeLessThanOrEqual(2_190 + 1_100 + 200);
});

test("without a scope, or against a service without the list, each task is read by id, as before", async () => {
  const start = clock.now();
  const ends = { a: start + 600, b: start + 700 };
  const noScope = await service({ ends });
  await wait(noScope.client, ["a", "b"], false);
  expect(noScope.counts.list).toBe(0);
  expect(noScope.counts.gets).toBeGreaterThan(2);
  await server!.close();
  const noList = await service({ ends: { c: clock.now() + 600, d: clock.now() + 700 }, noList: true });
  const tasks = await wait(noList.client, ["c", "d"]);
  expect(tasks.map((t) => t.state)).toEqual(["FINISHED", "FINISHED"]);
  // Asked once: a service without the list is not asked again.
  expect(noList.counts.list).toBe(1);
  expect(noList.counts.gets).toBeGreaterThan(2);
});

test("50 waits begun 10 ms apart (an engine starting creates one by one): one list per tick, at most 1.5 requests per task, whatever a read's latency", async () => {
  const start = clock.now();
  // Tasks of 2 s +/-10%, as the emulator runs them (a fixed spread: the same every run).
  const ends = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`t${i}`, start + i * 10 + 1_800 + ((i * 37) % 50) * 8]));
  // Reads that take 80 ms (a far region, or a loaded machine): eight waits reach the hint's end
  // while the first read there is under way.
  const { client, counts } = await service({ ends, others: 20, readMs: 80 });
  // Hints learned from shorter tasks of the type (1.3 to 1.55 s): each wait probes early, then
  // falls back to its schedule; 50 waits look at times of their own.
  const hints = new DurationHints();
  hints.learn("create_subnet", { below: 1_300, by: 1_550 });
  const waits = Object.keys(ends).map((id, i) =>
    clock.sleep(i * 10).then(() => client.waitForTasks([id], { deadline: clock.now() + 20_000, timeoutSeconds: 20, scope, hints })),
  );
  const done = await Promise.all(waits);
  expect(done.map(([t]) => t.state)).toEqual(Object.keys(ends).map(() => "FINISHED"));
  // One list answers the looks of a tick (a list for each look that needed a newer one: 23 to 26).
  expect(counts.list).toBeLessThanOrEqual(20);
  // Each task read once when it ended, and one read at the hint's end (1.55 s, too early): until
  // one such read found its task ended, one is under way at a time, however slow the service.
  expect(counts.gets).toBeLessThanOrEqual(51);
  expect((counts.gets + counts.list) / 50).toBeLessThanOrEqual(1.5);
});

test("while requests are paced to a rate, lists leave ten turns between them: at 10 a second, one a second", async () => {
  const start = clock.now();
  const ends = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, start + i * 100 + 2_500]));
  const { client, counts } = await service({ ends, pacedRate: 10 });
  const waits = Object.keys(ends).map((id, i) => clock.sleep(i * 100).then(() => wait(client, [id])));
  await Promise.all(waits);
  const gaps = counts.listTimes.slice(1).map((t, i) => t - counts.listTimes[i]);
  expect(gaps.length).toBeGreaterThan(0);
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);
  expect(listGapMs(undefined)).toBe(LIST_GAP_MS);
  expect(listGapMs(100)).toBe(LIST_GAP_MS);
  expect(listGapMs(5)).toBe(2_000);
});

test("a list not sent yet that every look stopped waiting for is not sent; a look still waiting keeps it", async () => {
  let lists = 0;
  const board = new TaskBoard(
    async () => {
      lists++;
      return [{ id: "t", state: "RUNNING" }];
    },
    clock,
    () => 10, // paced: lists a second apart
  );
  const first = await board.running(scope, "t", clock.now());
  expect(first?.task.id).toBe("t");
  expect(lists).toBe(1);
  // The next list is a second away; the only look waiting for it leaves (its wait read the task by id).
  const leave = new AbortController();
  const gone = board.running(scope, "t", first!.at + 1, leave.signal);
  leave.abort();
  expect(await gone).toBeUndefined();
  await clock.sleep(1_200);
  expect(lists).toBe(1);
  // Two looks wait for the next list, and one leaves: it is sent, and the other gets its answer.
  const second = await board.running(scope, "t", first!.at + 1);
  const one = new AbortController();
  const leaving = board.running(scope, "t", second!.at + 1, one.signal);
  const staying = board.running(scope, "t", second!.at + 1);
  one.abort();
  expect((await staying)?.task.id).toBe("t");
  expect(lists).toBe(3);
  await leaving;
});

test("a task created before the oldest one the lists reach back to is followed once a read by id has found it running", async () => {
  const froms: Array<string | undefined> = [];
  const running = (id: string, createdOn: string) => ({ id, state: "RUNNING", task_type: "create_subnet", created_on: createdOn });
  const board = new TaskBoard(
    async (_scope, from) => {
      froms.push(from);
      // Of the two, only the newer one is created at or after `from` once the lists reach back.
      return [running("newer", "2026-12-05T10:00:01")];
    },
    clock,
    () => undefined,
    true,
  );
  // The newer task is seen running first: the lists reach back to it.
  expect((await board.running(scope, "newer", clock.now()))?.task.id).toBe("newer");
  await clock.sleep(300);
  // The older one is not in a list that reaches back to the newer: its wait reads it by id.
  expect(await board.running(scope, "older", clock.now())).toBeUndefined();
  expect(board.showsEnd(scope, "older")).toBe(false);
  board.read(scope, running("older", "2026-12-05T10:00:00"));
  expect(board.showsEnd(scope, "older")).toBe(true);
  await clock.sleep(300);
  await board.running(scope, "newer", clock.now());
  expect(froms).toEqual([undefined, "2026-12-05T10:00:01", "2026-12-05T10:00:00"]);
  // A read that finds it ended ends its following.
  board.read(scope, { ...running("older", "2026-12-05T10:00:00"), state: "FINISHED" });
  expect(board.showsEnd(scope, "older")).toBe(false);
});

describe("waits that share a scope's lists", () => {
  // Hints of their own unless told: the process's learned what earlier tests' tasks took.
  const opts = (extra: Record<string, unknown> = {}) => ({
    deadline: clock.now() + 20_000,
    timeoutSeconds: 20,
    scope,
    random: () => 0.5,
    hints: new DurationHints(),
    ...extra,
  });
  const hintsOf = (below: number, by: number) => {
    const hints = new DurationHints();
    hints.learn("create_subnet", { below, by });
    return hints;
  };

  test("a task whose create was sent after a list showed a task of the scope is followed from its first look: its end comes from a list, with no read by id", async () => {
    const start = clock.now();
    const starts = { a: start, b: start + 1_000 };
    const ends = { a: start + 500, b: start + 2_950 };
    const { client, counts } = await service({ ends, from: { starts } });
    // A list shows `a` running (200 ms): the service's time of its creation is known from then.
    await client.waitForTasks(["a"], opts());
    await clock.sleep(starts.b - clock.now());
    const gets = counts.gets;
    // `b` is created after: its first look (at the middle of what alike tasks took) is a list that
    // reaches back to `a`'s creation and shows `b` ended, though no list showed it running.
    const [b] = await client.waitForTasks(["b"], opts({ hints: hintsOf(1_900, 2_100), taskType: "create_subnet", postedAt: clock.now() }));
    expect(b.created_resources?.subnets).toEqual(["s-b"]);
    expect(counts.gets - gets).toBe(0);
    expect(counts.listQueries.at(-1)).toContain("from_timestamp=");
  });

  test("a list asked for one wait's look that shows another's task ended wakes that wait: it ends then, not at its own next look", async () => {
    const start = clock.now();
    const starts = { b: start, a: start + 1_400 };
    const ends = { b: start + 1_500, a: start + 5_000 };
    const { client, counts } = await service({ ends, from: { starts } });
    let bEnded = 0;
    // `b` looks at 0.2, 0.32, 0.51, 0.82, 1.31 s (running), then would look at 2.10 s.
    const b = client.waitForTasks(["b"], opts()).then(() => (bEnded = clock.now() - start));
    await clock.sleep(starts.a - clock.now());
    // `a`'s first look (1.6 s) asks for a list, which shows `b` ended.
    const a = client.waitForTasks(["a"], opts());
    await b;
    expect(bEnded).toBe(1_600);
    expect(counts.gets).toBe(0);
    await a;
  });

  test("a list due now waits for the looks waits of the scope plan within 250 ms, and answers them all", async () => {
    const first = clock.now();
    const start = first + 1_000;
    const starts = { seen: first, a: start, b: start + 100 };
    const ends = { seen: first + 300, a: start + 1_990, b: start + 2_090 };
    const { client, counts } = await service({ ends, from: { starts } });
    const hints = hintsOf(1_950, 2_000);
    const done: Record<string, number> = {};
    const waitFor = (id: "a" | "b") =>
      client
        .waitForTasks([id], opts({ hints, taskType: "create_subnet", postedAt: clock.now() }))
        .then(() => (done[id] = clock.now() - start));
    // A list shows a task of the scope first, so that both are followed from their first look.
    await client.waitForTasks(["seen"], opts());
    await clock.sleep(start - clock.now());
    const lists = counts.list;
    const a = waitFor("a");
    await clock.sleep(100);
    await Promise.all([a, waitFor("b")]);
    // `a` looks at 2.0 s, `b` at 2.1 s: one list, at 2.1 s, shows both ended.
    expect(counts.list - lists).toBe(1);
    expect(done).toEqual({ a: 2_100, b: 2_100 });
  });

  test("while paced, a list waits for the rest of the burst of looks planned within a gap, and answers them all: a wave's creates a turn apart, one list", async () => {
    // Eight creates the pacer let go a turn apart (10 a second), their tasks of 1.99 s.
    const { lists, done } = await wave(8, hintsOf(1_950, 2_000));
    // They look at 2.0 to 2.7 s: one list, at 2.7 s, shows all ended (before: one at 2.2 s for
    // the first three, the next a second later for the rest, seen at 3.2 s).
    expect(lists).toBe(1);
    expect(done).toEqual(done.map(() => 2_700));
    // None is seen more than a gap (a second at 10 a second) after its own look.
    expect(Math.max(...done.map((at, i) => at - (2_000 + i * 100)))).toBeLessThanOrEqual(listGapMs(10));
  });

  /** `count` creates the pacer let go a turn apart (10 a second) after a list showed a task of the scope, their tasks of 1.99 s: the lists asked for, and when each wait ended (ms after the first create). */
  async function wave(count: number, hints: DurationHints, startOf = (i: number) => i * 100) {
    const first = clock.now();
    const start = first + 3_000;
    const ids = Array.from({ length: count }, (_, i) => `w${i}`);
    const starts = { seen: first, ...Object.fromEntries(ids.map((id, i) => [id, start + startOf(i)])) };
    const ends = { seen: first + 300, ...Object.fromEntries(ids.map((id, i) => [id, start + startOf(i) + 1_990])) };
    const { client, counts } = await service({ ends, from: { starts }, pacedRate: 10 });
    await client.waitForTasks(["seen"], opts());
    await clock.sleep(start - clock.now());
    const lists = counts.list;
    const done: number[] = [];
    await Promise.all(
      ids.map((id, i) =>
        clock
          .sleep(startOf(i))
          .then(() => client.waitForTasks([id], opts({ hints, taskType: "create_subnet", postedAt: clock.now() })))
          .then(() => (done[i] = clock.now() - start)),
      ),
    );
    return { lists: counts.list - lists, done, gets: counts.gets };
  }

  test("while paced, a duration's bracket no wider than the gap between lists is looked at at its end, not its middle: one list sees the wave whole", async () => {
    // Alike tasks ran more than 1.7 s and under 2.0 s: 0.3 s apart, under the gap of a second.
    const { lists, done, gets } = await wave(8, hintsOf(1_700, 2_000));
    // They look at 2.0 to 2.7 s, one list at 2.7 s (before: at the middle, 1.85 to 2.55 s, one
    // list at 2.55 s that found the last two running, and one more a gap later for them, at 3.55 s).
    expect(lists).toBe(1);
    expect(done).toEqual(done.map(() => 2_700));
    expect(gets).toBe(0);
  });

  test("while paced, a burst of looks that runs past the gap is followed to its end: twelve creates a turn apart, one list", async () => {
    const { lists, done } = await wave(12, hintsOf(1_950, 2_000));
    // They look at 2.0 to 3.1 s, 1.1 s, longer than the gap: one list, at 3.1 s (before: one at
    // 3.0 s for the first eleven, and one a gap later, at 4.0 s, for the last).
    expect(lists).toBe(1);
    expect(done).toEqual(done.map(() => 3_100));
  });

  test("while paced, a look planned within a gap after a burst's last joins it: a create begun 0.4 s after its wave is seen by the wave's list", async () => {
    // Eight creates a turn apart, and a ninth 0.4 s after the eighth.
    const { lists, done } = await wave(9, hintsOf(1_950, 2_000), (i) => (i < 8 ? i * 100 : 1_100));
    // They look at 2.0 to 2.7 s and at 3.1 s: one list, at 3.1 s (before: one at 2.7 s, and one
    // a gap later, at 3.7 s, for the ninth).
    expect(lists).toBe(1);
    expect(done).toEqual(done.map(() => 3_100));
  });
});
