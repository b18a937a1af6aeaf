// Task waiting: outcomes, messages, and how many polls it costs.
import {
  CimsClient,
  closeAllPools,
  ConnectionError,
  InvalidResponseError,
  InternalServerError,
  nextDelay,
  NotFoundError,
  RateLimitError,
  TaskFailedError,
  TaskTimeoutError,
  waitForTasks,
  type Clock,
  type Task,
  type TaskProgress,
  type WaitOptions,
} from "../../provider/client";
import { startTestServer, type TestServer } from "../support/test-server";

/**
 * A clock that advances only when the waiter sleeps: simulates minutes in milliseconds. It
 * starts at the real time, so a deadline computed from it also means "later" to code that
 * reads the real clock (the HTTP layer under CimsClient.waitForTasks).
 */
function fakeClock(): Clock & { elapsed: () => number } {
  let now = Date.now();
  const start = now;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    elapsed: () => now - start,
  };
}

/** A task that is RUNNING until `finishAt` (clock time), then FINISHED (or ERROR). */
function simulatedTask(clock: Clock, finishAt: number, end: "FINISHED" | "ERROR" = "FINISHED") {
  const gets: number[] = [];
  const getTask = async (id: string): Promise<Task> => {
    gets.push(clock.now());
    const done = clock.now() >= finishAt;
    return {
      id,
      state: done ? end : "RUNNING",
      task_type: "create_subnet",
      error: done && end === "ERROR" ? "Subnet 10.0.0.0/24 overlaps 10.0.0.0/16" : null,
      created_resources: done ? { subnets: ["sub-1"] } : null,
    };
  };
  return { gets, getTask };
}

/** What does the waiting: waitForTasks itself, or something built on it (CimsClient over HTTP). */
type Waiter = (getTask: (id: string) => Promise<Task>, ids: string[], opts: WaitOptions) => Promise<Task[]>;

/** One task of `durationMs` waited on with a simulated clock and no jitter: its GET times and lag. */
async function simulateWait(durationMs: number, random = () => 0.5, wait: Waiter = waitForTasks) {
  const clock = fakeClock();
  const finishAt = clock.now() + durationMs;
  const { gets, getTask } = simulatedTask(clock, finishAt);
  const tasks = await wait(getTask, ["t"], { deadline: clock.now() + 3_600_000, timeoutSeconds: 3600, clock, random });
  const intervals = gets.slice(1).map((t, i) => Math.round(t - gets[i]));
  return { gets, lag: gets.at(-1)! - finishAt, intervals, tasks };
}

describe("waitForTasks outcomes", () => {
  test("an empty task list returns at once without a request", async () => {
    const getTask = jest.fn();
    await expect(waitForTasks(getTask, [], { deadline: Date.now() + 1000, timeoutSeconds: 1 })).resolves.toEqual([]);
    expect(getTask).not.toHaveBeenCalled();
  });

  test("FINISHED resolves with the task records, in the order of the ids", async () => {
    const clock = fakeClock();
    const a = simulatedTask(clock, clock.now() + 2_000);
    const b = simulatedTask(clock, clock.now() + 500);
    const getTask = (id: string) => (id === "a" ? a.getTask(id) : b.getTask(id));
    const tasks = await waitForTasks(getTask, ["a", "b"], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock });
    expect(tasks.map((t) => [t.id, t.state])).toEqual([
      ["a", "FINISHED"],
      ["b", "FINISHED"],
    ]);
    expect(tasks[0].created_resources).toEqual({ subnets: ["sub-1"] });
  });

  test("ERROR throws TaskFailedError with the task id, type and the service's error text", async () => {
    const clock = fakeClock();
    const { getTask } = simulatedTask(clock, clock.now() + 1_000, "ERROR");
    const err = (await waitForTasks(getTask, ["t-err"], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock }).catch(
      (e: unknown) => e,
    )) as TaskFailedError;
    expect(err).toBeInstanceOf(TaskFailedError);
    expect(err.taskId).toBe("t-err");
    expect(err.message).toBe("task t-err (create_subnet) failed: Subnet 10.0.0.0/24 overlaps 10.0.0.0/16");
  });

  test("the deadline throws TaskTimeoutError naming each unfinished task and how to raise the limit", async () => {
    const clock = fakeClock();
    const slow = simulatedTask(clock, clock.now() + 10 * 60_000);
    const fast = simulatedTask(clock, clock.now() + 1_000);
    const getTask = (id: string) => (id === "slow" ? slow.getTask(id) : fast.getTask(id));
    const err = (await waitForTasks(getTask, ["slow", "fast"], { deadline: clock.now() + 30_000, timeoutSeconds: 30, clock }).catch(
      (e: unknown) => e,
    )) as TaskTimeoutError;
    expect(err).toBeInstanceOf(TaskTimeoutError);
    expect(err.unfinished).toEqual([{ id: "slow", state: "RUNNING" }]);
    expect(err.message).toContain("timed out after 30s waiting for task(s) slow (RUNNING)");
    expect(err.message).toContain("cims:taskTimeoutSeconds");
    expect(err.message).toContain("`timeouts` input");
    // A last look happens at the deadline itself.
    expect(slow.gets.at(-1)).toBe(clock.now());
  });

  test("NEW, RUNNING and unknown states keep polling; progress reports each change once", async () => {
    const clock = fakeClock();
    const states = ["NEW", "NEW", "RUNNING", "QUEUED_ELSEWHERE", "RUNNING", "FINISHED"];
    let i = 0;
    const seen: TaskProgress[] = [];
    await waitForTasks(async (id) => ({ id, state: states[i++] }), ["t"], {
      deadline: clock.now() + 60_000,
      timeoutSeconds: 60,
      clock,
      onProgress: (p) => seen.push(p),
    });
    expect(seen.map((p) => [p.previousState, p.state])).toEqual([
      [undefined, "NEW"],
      ["NEW", "RUNNING"],
      ["RUNNING", "QUEUED_ELSEWHERE"],
      ["QUEUED_ELSEWHERE", "RUNNING"],
      ["RUNNING", "FINISHED"],
    ]);
  });

  test("a 404 for a just-created task is retried briefly, then reported", async () => {
    const clock = fakeClock();
    let calls = 0;
    const flaky = async (id: string): Promise<Task> => {
      calls++;
      if (calls <= 2) throw new NotFoundError(404, "GET", `/cloud/v1/tasks/${id}`, { message: "Task not found" });
      return { id, state: "FINISHED" };
    };
    await expect(waitForTasks(flaky, ["t"], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock })).resolves.toHaveLength(1);

    const gone = async (id: string): Promise<Task> => {
      throw new NotFoundError(404, "GET", `/cloud/v1/tasks/${id}`, { message: "Task not found" });
    };
    const err = await waitForTasks(gone, ["t"], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
  });

  test("a task ending in ERROR does not stop the others: every outcome is collected, a FINISHED sibling's created id included", async () => {
    const clock = fakeClock();
    const failing = simulatedTask(clock, clock.now() + 1_000, "ERROR");
    const made = simulatedTask(clock, clock.now() + 5_000);
    const getTask = (id: string) => (id === "bad" ? failing.getTask(id) : made.getTask(id));
    const err = (await waitForTasks(getTask, ["bad", "made"], { deadline: clock.now() + 900_000, timeoutSeconds: 900, clock }).catch(
      (e: unknown) => e,
    )) as TaskFailedError;
    expect(err).toBeInstanceOf(TaskFailedError);
    expect(err.taskIds).toEqual(["bad", "made"]);
    expect(err.tasks?.map((t) => [t.id, t.state])).toEqual([
      ["bad", "ERROR"],
      ["made", "FINISHED"],
    ]);
    expect(err.tasks?.[1].created_resources).toEqual({ subnets: ["sub-1"] });
  });

  test.each([
    ["a 5xx", (path: string) => new InternalServerError(500, "GET", path, { message: "boom" })],
    ["a 429", (path: string) => new RateLimitError(429, "GET", path, { message: "slow down" })],
    ["a dropped connection", (path: string) => new ConnectionError("GET", path, "ECONNRESET", "socket hang up")],
  ])("a task-status read that fails with %s is tried again on the schedule until the task ends", async (_what, failure) => {
    const clock = fakeClock();
    const task = simulatedTask(clock, clock.now() + 3_000);
    let failures = 0;
    const getTask = async (id: string): Promise<Task> => {
      if (failures < 6) {
        failures++;
        throw failure(`/cloud/v1/tasks/${id}`);
      }
      return task.getTask(id);
    };
    const [done] = await waitForTasks(getTask, ["t"], { deadline: clock.now() + 600_000, timeoutSeconds: 600, clock });
    expect(done.state).toBe("FINISHED");
    expect(failures).toBe(6);
  });

  test("a read that keeps failing ends at the deadline, saying what the last read got", async () => {
    const clock = fakeClock();

    const never = async (id: string): Promise<Task> => {
      throw new InternalServerError(500, "GET", `/cloud/v1/tasks/${id}`, { message: "still down" });
    };
    const err = (await waitForTasks(never, ["t"], { deadline: clock.now() + 30_000, timeoutSeconds: 30, clock }).catch(
      (e: unknown) => e,
    )) as TaskTimeoutError;
    expect(err).toBeInstanceOf(TaskTimeoutError);
    expect(err.message).toContain("last read failed: GET /cloud/v1/tasks/t: 500 Internal Server Error: still down");
  });

  test("an aborted signal ends the wait with its AbortError, not a timeout", async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const { gets, getTask } = simulatedTask(clock, clock.now() + 60_000);
    const aborting = async (id: string) => {
      if (gets.length === 2) controller.abort();
      return getTask(id);
    };
    const err = await waitForTasks(aborting, ["t"], {
      deadline: clock.now() + 600_000,
      timeoutSeconds: 600,
      clock,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    expect(gets).toHaveLength(3); // no look after the abort
  });
});

describe("odd task records", () => {
  test("a structured `error` is shown as JSON in TaskFailedError, not a crash", async () => {
    const getTask = async (id: string): Promise<Task> => ({
      id,
      state: "ERROR",
      task_type: "create_subnet",
      error: { code: 7, detail: "no IPs left" },
    });
    const clock = fakeClock();
    const err = await waitForTasks(getTask, ["t1"], { deadline: clock.now() + 5_000, timeoutSeconds: 5, clock }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TaskFailedError);
    expect((err as Error).message).toBe('task t1 (create_subnet) failed: {"code":7,"detail":"no IPs left"}');
  });

  test("a record without a state is an InvalidResponseError at once, not a wait until the deadline", async () => {
    const getTask = jest.fn(async () => ({ id: "t1" }) as unknown as Task);
    const clock = fakeClock();
    const err = await waitForTasks(getTask, ["t1"], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    // "At once": after one GET. (Polling on would, on this clock, end in TaskTimeoutError.)
    expect(getTask).toHaveBeenCalledTimes(1);
    expect((err as Error).message).toContain("without a task state");
  });
});

describe("nextDelay: the schedule as a pure function", () => {
  /** The look times of a task waited on for `untilMs`, from nextDelay alone (no jitter). */
  const looks = (untilMs: number, draw = 0.5): number[] => {
    const at: number[] = [];
    for (let t = nextDelay(0, draw); at.at(-1) === undefined || at.at(-1)! < untilMs; t += nextDelay(t, draw)) at.push(t);
    return at;
  };

  test("first look at 0.5 s, the second at 1 s, then every second until 10% of the time waited is longer, capped at 5 s", () => {
    expect(nextDelay(0)).toBe(500);
    expect(nextDelay(500)).toBe(500);
    expect(nextDelay(1_000)).toBe(1_000);
    expect(nextDelay(9_000)).toBe(1_000);
    expect(nextDelay(20_000)).toBe(2_000);
    expect(nextDelay(49_000)).toBeCloseTo(4_900);
    expect(nextDelay(600_000)).toBe(5_000);
    expect(looks(10_000)).toEqual([500, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000]);
  });

  test("jitter is +/-10% of the look, and never past the cap", () => {
    expect(nextDelay(0, 0)).toBeCloseTo(450);
    expect(nextDelay(0, 1)).toBeCloseTo(550);
    expect(nextDelay(2_000, 0)).toBeCloseTo(900);
    expect(nextDelay(2_000, 1)).toBeCloseTo(1_100);
    expect(nextDelay(600_000, 0.999)).toBe(5_000);
  });

  test("never more looks than fixed 1 s polling (0 s, 1 s, 2 s, ...) to see a task of any length", () => {
    const fixed1s = (durationMs: number) => Math.ceil(durationMs / 1_000) + 1;
    for (let d = 50; d <= 120_000; d += 50) expect(looks(d).length).toBeLessThanOrEqual(fixed1s(d));
    // Equal from 1 s to 10 s (the same looks, but the one at 0 s moved to 0.5 s), fewer past it.
    expect(looks(2_200).length).toBe(fixed1s(2_200));
    expect(looks(60_000).length).toBe(30); // fixed 1 s: 61
  });
});

describe("waiting on the schedule (simulated clock)", () => {
  const pollsFor = (durationMs: number) => simulateWait(durationMs);

  test("the loop looks when nextDelay says, and only then", async () => {
    const { gets } = await pollsFor(12_500);
    const start = gets[0] - 500;
    expect(gets.map((t) => Math.round(t - start))).toEqual([
      500, 1_000, 2_000, 3_000, 4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000, 11_000, 12_100, 13_310,
    ]);
  });

  test("jitter never takes an interval past the cap", async () => {
    const { intervals } = await simulateWait(120_000, () => 0.999);
    expect(Math.max(...intervals)).toBeLessThanOrEqual(5_000);
  });

  test("a 20 s task is seen within 10% of its length, in fewer GETs than fixed 1 s polling (21)", async () => {
    const { gets, lag } = await pollsFor(20_000);
    expect(gets).toHaveLength(19);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(0.1 * 20_000);
  });

  test("a 300 ms task is seen at 0.5 s, in 1 GET (fixed 1 s polling: at 1 s, in 2)", async () => {
    const { gets, lag } = await pollsFor(300);
    expect(gets).toHaveLength(1);
    expect(lag).toBe(200);
  });

  test("a 2.2 s task is seen at 3 s, in 4 GETs, as fixed 1 s polling sees it", async () => {
    const { gets, lag } = await pollsFor(2_200);
    expect(lag).toBe(800);
    expect(gets).toHaveLength(4);
  });

  test("an hour-long task polls every 5 s once 10% of its age is longer", async () => {
    const { gets, intervals } = await pollsFor(3_600_000 - 60_000);
    expect(Math.max(...intervals)).toBe(5_000);
    expect(gets.length).toBeGreaterThan(3_500 / 5);
    expect(gets.length).toBeLessThan(3_600 / 5 + 60);
  });

  describe("against a real server", () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
      await closeAllPools();
    });

    // The loopback server answers each GET with the simulated task's state at the simulated
    // time, so this proves the schedule survives CimsClient and HTTP (same GETs, same lag as
    // in-process above) without a stopwatch. Real-time lag over HTTP is `npm run bench`'s job.
    test("a 700 ms task (simulated clock) through CimsClient: RUNNING then FINISHED, 2 GETs of the task path, at 0.5 s and 1 s", async () => {
      const states: string[] = [];
      const viaServer: Waiter = async (getTask, ids, opts) => {
        server = await startTestServer(async (req) => ({ body: await getTask(req.url.split("/").pop()!) }));
        const client = new CimsClient({
          apiUrl: new URL(server.url),
          apiKey: "k",
          maxRetries: 3,
          connectTimeoutMs: 1000,
          requestTimeoutMs: 5000,
          taskPath: "/cloud/v1/tasks/{task_id}",
        });
        return client.waitForTasks(ids, { ...opts, onProgress: (p) => states.push(p.state) });
      };
      const { tasks, gets, lag } = await simulateWait(700, () => 0.5, viaServer);
      expect(tasks.map((t) => [t.id, t.state])).toEqual([["t", "FINISHED"]]);
      expect(states).toEqual(["RUNNING", "FINISHED"]);
      expect(server!.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /cloud/v1/tasks/t", "GET /cloud/v1/tasks/t"]);
      // If CimsClient dropped the clock or random options, the wait would run on the real clock
      // and these would differ (or the simulated task would never finish).
      expect(gets.map((t) => t - gets[0])).toEqual([0, 500]);
      expect(lag).toBe(300);
    });
  });
});
