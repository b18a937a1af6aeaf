// Task waiting: outcomes, messages, and how many polls it costs.
import {
  CancelledError,
  CANCEL_LOOK_MS,
  CimsClient,
  closeAllPools,
  DurationHints,
  InvalidResponseError,
  InternalServerError,
  nextDelay,
  NotFoundError,
  TaskFailedError,
  TaskTimeoutError,
  waitForTasks,
  type Clock,
  type Task,
  type TaskProgress,
  type WaitOptions,
} from "../../../../provider/client";
import { processClock } from "../../../../provider/client/clock";
import { startTestServer, type TestServer } from "../../../support/test-server";
import { VirtualClock } from "../../../support/virtual-clock";

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

/**
 * Virtual time for several waits at once: sleepers wake in time order, and a sleep ends early
 * when its signal aborts, as the system clock's does. `run` advances time until `p` settles.
 */
function virtualTime() {
  let now = Date.now();
  const start = now;
  const timers: Array<{ at: number; wake: () => void }> = [];
  const clock: Clock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        const timer = { at: now + ms, wake: resolve };
        timers.push(timer);
        signal?.addEventListener("abort", () => {
          timers.splice(timers.indexOf(timer), 1);
          reject(signal.reason);
        });
      }),
  };
  const run = async <T>(p: Promise<T>): Promise<T> => {
    let settled = false;
    void p.finally(() => (settled = true)).catch(() => undefined);
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) continue;
      now = next.at;
      next.wake();
    }
    return p;
  };
  return { clock, elapsed: () => now - start, run };
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
async function simulateWait(durationMs: number, hints = new DurationHints(), random = () => 0.5, wait: Waiter = waitForTasks) {
  const clock = fakeClock();
  const finishAt = clock.now() + durationMs;
  const { gets, getTask } = simulatedTask(clock, finishAt);
  const tasks = await wait(getTask, ["t"], { deadline: clock.now() + 3_600_000, timeoutSeconds: 3600, clock, random, hints });
  const intervals = gets.slice(1).map((t, i) => Math.round(t - gets[i]));
  return { gets, lag: gets.at(-1)! - finishAt, intervals, tasks };
}

describe("waitForTasks outcomes", () => {
  test("an empty task list returns at once without a request", async () => {
    const getTask = jest.fn();
    await expect(waitForTasks(getTask, [], { deadline: processClock.now() + 1000, timeoutSeconds: 1 })).resolves.toEqual([]);
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

  test("a task-status read the service fails (5xx) is tried again on the schedule until the task ends", async () => {
    const clock = fakeClock();
    const task = simulatedTask(clock, clock.now() + 3_000);
    let failures = 0;
    const getTask = async (id: string): Promise<Task> => {
      if (failures < 6) {
        failures++;
        throw new InternalServerError(500, "GET", `/cloud/v1/tasks/${id}`, { message: "boom" });
      }
      return task.getTask(id);
    };
    const [done] = await waitForTasks(getTask, ["t"], { deadline: clock.now() + 600_000, timeoutSeconds: 600, clock });
    expect(done.state).toBe("FINISHED");
    expect(failures).toBe(6);

    // A read that keeps failing ends at the deadline, saying what the last read got.
    const never = async (id: string): Promise<Task> => {
      throw new InternalServerError(500, "GET", `/cloud/v1/tasks/${id}`, { message: "still down" });
    };
    const err = (await waitForTasks(never, ["t"], { deadline: clock.now() + 30_000, timeoutSeconds: 30, clock }).catch(
      (e: unknown) => e,
    )) as TaskTimeoutError;
    expect(err).toBeInstanceOf(TaskTimeoutError);
    expect(err.message).toContain("last read failed: GET /cloud/v1/tasks/t: 500 Internal Server Error: still down");
  });
});

describe("a cancel (the engine's Cancel)", () => {
  // Virtual time: "at once" is measured in the wait's own time, whatever the machine's load.
  let clock: VirtualClock;
  beforeEach(() => {
    clock = new VirtualClock();
  });
  afterEach(() => clock.close());

  /** A task NEW until `runsAt`, then RUNNING naming its subnet, FINISHED at `finishAt` (clock time, ms from now). */
  function timedTask(runsAt: number, finishAt = Infinity) {
    const start = clock.now();
    return async (id: string): Promise<Task> => {
      const at = clock.now() - start;
      const state = at >= finishAt ? "FINISHED" : at >= runsAt ? "RUNNING" : "NEW";
      return { id, state, task_type: "create_subnet", created_resources: state === "NEW" ? null : { subnets: [`sub-${id}`] } };
    };
  }

  test("ends every wait at once with CancelledError carrying each task's latest record (what it creates included)", async () => {
    const cancel = new AbortController();
    const getTask = timedTask(0);
    const waiting = waitForTasks(getTask, ["a", "b"], {
      deadline: clock.now() + 3_600_000,
      timeoutSeconds: 3600,
      signal: cancel.signal,
      clock,
    });
    await clock.sleep(400);
    const cancelledAt = clock.now();
    cancel.abort();
    const err = (await waiting.catch((e: unknown) => e)) as CancelledError;
    expect(clock.now() - cancelledAt).toBe(0);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.code).toBe("CIMS_CANCELLED");
    expect(err.message).toBe("the run was cancelled while waiting for task(s) a (RUNNING), b (RUNNING); the service goes on with them");
    expect(err.taskIds).toEqual(["a", "b"]);
    expect(err.tasks?.map((t) => t.created_resources)).toEqual([{ subnets: ["sub-a"] }, { subnets: ["sub-b"] }]);
  });

  test("a task still NEW is looked at again (a few seconds at most) until it names what it creates", async () => {
    const cancel = new AbortController();
    cancel.abort(); // cancelled before the wait began
    const began = clock.now();
    const err = (await waitForTasks(timedTask(800), ["a"], {
      deadline: clock.now() + 3_600_000,
      timeoutSeconds: 3600,
      signal: cancel.signal,
      clock,
    }).catch((e: unknown) => e)) as CancelledError;
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.tasks?.[0]).toMatchObject({ state: "RUNNING", created_resources: { subnets: ["sub-a"] } });
    // Seen running at the first look (250 ms apart) after it began to, at 800 ms.
    expect(clock.now() - began).toBe(1_000);

    // One that never runs is given up on after CANCEL_LOOK_MS, as NEW.
    const looks: number[] = [];
    const never = async (id: string): Promise<Task> => {
      looks.push(clock.elapsed());
      return { id, state: "NEW", created_resources: null };
    };
    const stuck = (await waitForTasks(never, ["n"], {
      deadline: clock.now() + 3_600_000,
      timeoutSeconds: 3600,
      signal: cancel.signal,
      clock,
    }).catch((e: unknown) => e)) as CancelledError;
    expect(stuck.message).toContain("n (NEW)");
    expect(looks.at(-1)).toBeLessThanOrEqual(looks[0] + CANCEL_LOOK_MS);
    expect(looks.at(-1)).toBeGreaterThan(looks[0] + CANCEL_LOOK_MS - 500);
    expect(looks.length).toBeGreaterThan(2);
  });

  test("a look waiting for the scope's next task list (paced: up to seconds away) ends at once too", async () => {
    const cancel = new AbortController();
    let listAsked = 0;
    // The shared list comes 5 s from now, as a paced list at 2 requests a second would.
    const listed = () => {
      listAsked++;
      return clock.sleep(5_000).then(() => undefined);
    };
    const waiting = waitForTasks(timedTask(0), ["a"], {
      deadline: clock.now() + 3_600_000,
      timeoutSeconds: 3600,
      signal: cancel.signal,
      firstPollMs: 50,
      listed,
      clock,
    });
    await clock.sleep(300);
    expect(listAsked).toBe(1);
    const cancelledAt = clock.now();
    cancel.abort();
    const err = (await waiting.catch((e: unknown) => e)) as CancelledError;
    expect(clock.now() - cancelledAt).toBe(0);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.tasks?.[0]).toMatchObject({ id: "a", state: "RUNNING" });
  });

  test("a task that ended by the last look ends as usual: FINISHED resolves", async () => {
    const cancel = new AbortController();
    const waiting = waitForTasks(timedTask(0, 500), ["a"], {
      deadline: clock.now() + 3_600_000,
      timeoutSeconds: 3600,
      signal: cancel.signal,
      pollCapMs: 5_000,
      firstPollMs: 5_000,
      clock,
    });
    await clock.sleep(600);
    cancel.abort();
    await expect(waiting).resolves.toEqual([expect.objectContaining({ id: "a", state: "FINISHED" })]);
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

describe("learning task durations", () => {
  test("tasks of a type that finished before are seen almost at once; a bisection narrows the guess", async () => {
    const hints = new DurationHints();
    const lags: number[] = [];
    const gets: number[] = [];
    for (let i = 0; i < 6; i++) {
      const task = await simulateWait(2_200, hints);
      lags.push(task.lag);
      gets.push(task.gets.length);
    }
    expect(lags[0]).toBeGreaterThan(800); // the ordinary schedule: seen at 3.10 s
    expect(lags.at(-1)!).toBeLessThanOrEqual(50); // bisected down to a bracket of 50 ms
    expect(lags.slice(1).every((lag, i) => lag <= lags[i])).toBe(true);
    expect(Math.max(...gets)).toBeLessThanOrEqual(gets[0] + 1);
    expect(gets.at(-1)!).toBeLessThanOrEqual(gets[0]); // once learned, no GET more than without
  });

  test("a task of a type whose tasks all ran past a time is first looked at then: no look before alike tasks ended", async () => {
    const hints = new DurationHints();
    hints.learn("create_subnet", { below: 1_980, by: 2_020 });
    const clock = fakeClock();
    const finishAt = clock.now() + 2_000;
    const { gets, getTask } = simulatedTask(clock, finishAt);
    const opts = { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock, random: () => 0.5, hints };
    // The caller says the type (its operation's): the first look is at the bracket's end, and finds it ended.
    await waitForTasks(getTask, ["t"], { ...opts, taskType: "create_subnet" });
    expect(gets.map((at) => Math.round(at - (finishAt - 2_000)))).toEqual([2_020]);
    // Not told, the first look (200 ms) shows the type; from then on, none until the bracket's end.
    const second = simulatedTask(clock, clock.now() + 2_000);
    const began = clock.now();
    await waitForTasks(second.getTask, ["t"], opts);
    expect(second.gets.map((at) => Math.round(at - began))).toEqual([200, 2_020]);
    // A type whose end a read found too early (not trusted) keeps the ordinary looks before it.
    hints.claimEnd("create_subnet")!(false);
    const third = simulatedTask(clock, clock.now() + 2_000);
    await waitForTasks(third.getTask, ["t"], { ...opts, taskType: "create_subnet" });
    expect(third.gets.length).toBeGreaterThan(4);
  });

  test("alike tasks started together: once one is seen finished, a wait asleep past its own task's end looks at once", async () => {
    // Two waits of one task type in one virtual time.
    const { clock, elapsed, run } = virtualTime();
    const hints = new DurationHints();
    const looks: Record<string, number[]> = { early: [], late: [] };
    const getTask = async (id: string): Promise<Task> => {
      looks[id].push(elapsed());
      const done = elapsed() >= 2_000;
      return { id, state: done ? "FINISHED" : "RUNNING", task_type: "create_subnet", created_resources: done ? { subnets: [id] } : null };
    };
    // Jitter at its ends: "early" looks at 2,402 ms (its 1,560 ms look found it running);
    // "late" looked at 1,670 ms and, alone, would look next at 2,770 ms.
    const wait = (id: string, random: () => number) =>
      waitForTasks(getTask, [id], { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock, random, hints });
    await run(Promise.all([wait("early", () => 0), wait("late", () => 1)]));
    expect(looks.early.at(-1)).toBeCloseTo(2_402, -1);
    expect(looks.late.at(-2)).toBeCloseTo(1_670, -1);
    // Re-planned by what "early" taught: looked at when that was learned, not 1.1 s after its last look.
    expect(looks.late.at(-1)).toBe(looks.early.at(-1));
  });

  test("a task that runs longer than the last one only costs a probe or two more", async () => {
    const hints = new DurationHints();
    hints.learn("create_subnet", { below: 1_500, by: 2_000 });
    const task = await simulateWait(8_000, hints);
    const again = await simulateWait(8_000); // nothing learned, for the count
    expect(task.gets.length).toBeLessThanOrEqual(again.gets.length + 2);
    expect(task.lag).toBeLessThanOrEqual(1_000);
    expect(hints.get("create_subnet")!.by).toBeGreaterThanOrEqual(8_000); // it learned the new duration
  });

  test("a stale hint never pushes a look past the 5 s cap", async () => {
    const hints = new DurationHints();
    hints.learn("create_subnet", { below: 62_000, by: 66_500 });
    const { intervals, lag } = await simulateWait(60_500, hints);
    expect(Math.max(...intervals)).toBeLessThanOrEqual(5_000);
    expect(lag).toBeLessThanOrEqual(5_000);
  });

  test("brackets intersect when they overlap and are replaced when they do not", () => {
    const hints = new DurationHints();
    hints.learn("t", { below: 1_000, by: 2_000 });
    hints.learn("t", { below: 1_500, by: 2_500 });
    expect(hints.get("t")).toEqual({ below: 1_500, by: 2_000 });
    hints.learn("t", { below: 5_000, by: 6_000 });
    expect(hints.get("t")).toEqual({ below: 5_000, by: 6_000 });
    hints.learn(undefined, { below: 1, by: 2 });
    expect(hints.get("other")).toBeUndefined();
  });
});

describe("nextDelay: the schedule as a pure function", () => {
  test("first look after 200 ms, then 60% of the elapsed time up to 1 s, then 10%, capped at 5 s", () => {
    expect(nextDelay(0)).toBe(200);
    expect(nextDelay(200)).toBe(120);
    expect(nextDelay(1_000)).toBe(600);
    expect(nextDelay(5_000)).toBe(1_000);
    expect(nextDelay(20_000)).toBe(2_000);
    expect(nextDelay(600_000)).toBe(5_000);
    expect(nextDelay(600_000, { capMs: 3_000 })).toBe(3_000);
    expect(nextDelay(0, { firstMs: 50 })).toBe(50);
  });

  test("jitter is +/-10% of the ordinary look, and never past the cap", () => {
    expect(nextDelay(1_000, { random: () => 0 })).toBeCloseTo(540);
    expect(nextDelay(1_000, { random: () => 1 })).toBeCloseTo(660);
    expect(nextDelay(600_000, { random: () => 1 })).toBe(5_000);
  });

  test("a hint's probe due within two ordinary looks replaces the look; a far one does not", () => {
    const hint = { below: 1_500, by: 2_000 }; // still running at 1.5 s, finished by 2 s
    expect(nextDelay(1_000, { hint })).toBe(750); // the bracket's middle, 1.75 s
    expect(nextDelay(1_750, { hint })).toBe(250); // then its end
    expect(nextDelay(2_000, { hint })).toBe(1_000); // past it: the ordinary look
    expect(nextDelay(200, { hint: { below: 60_000, by: 61_000 } })).toBe(120); // far away: ordinary
  });

  test("while a look that misses waits a gap for the next (paced lists), a bracket no wider than that gap is probed at its end only", () => {
    const hint = { below: 1_500, by: 2_000 };
    expect(nextDelay(1_000, { hint, relookMs: 1_000 })).toBe(1_000); // the end, 2 s: a middle probe would find it running
    expect(nextDelay(1_000, { hint, relookMs: 400 })).toBe(750); // wider than the gap: the middle, as before
  });
});

describe("adaptive polling", () => {
  const pollsFor = (durationMs: number) => simulateWait(durationMs);

  test("jitter never takes an interval past the cap", async () => {
    const { intervals } = await simulateWait(120_000, new DurationHints(), () => 0.999);
    expect(Math.max(...intervals)).toBeLessThanOrEqual(5_000);
  });

  test("a 20 s task (simulated clock) is seen within one interval, 10% of its length, in about fixed 1 s polling's GETs", async () => {
    const { gets, lag } = await pollsFor(20_000);
    // 0.2, 0.32, 0.51, 0.82, 1.31, 2.10, then every second to 10.10, then 10% of the elapsed
    // time: 11.11, 12.22, 13.44, 14.78, 16.26, 17.89, 19.68, 21.64 s. Fixed 1 s polling makes 21
    // GETs (it looks at 0 s too). Across jittered durations the median lag is ~5% (the bench).
    expect(gets).toHaveLength(22);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(0.1 * 21_644);
  });

  test("a 300 ms task (simulated clock) is seen within 150 ms, in 2 polls", async () => {
    const { gets, lag } = await pollsFor(300);
    expect(gets.map((t) => t - gets[0])).toEqual([0, 120]); // at 0.2 s and 0.32 s
    expect(lag).toBe(20);
  });

  test("a 2 s task (simulated clock) is seen within 300 ms", async () => {
    const { gets, lag } = await pollsFor(2_000);
    expect(lag).toBeLessThanOrEqual(300);
    expect(gets).toHaveLength(6);
  });

  test("an hour-long task polls every 5 s once 12% of its age is longer", async () => {
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
    test("a 300 ms task (simulated clock) through CimsClient: RUNNING then FINISHED, 2 GETs of the task path, at 0.2 s and 0.32 s", async () => {
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
      const { tasks, gets, lag } = await simulateWait(300, new DurationHints(), () => 0.5, viaServer);
      expect(tasks.map((t) => [t.id, t.state])).toEqual([["t", "FINISHED"]]);
      expect(states).toEqual(["RUNNING", "FINISHED"]);
      expect(server!.requests.map((r) => `${r.method} ${r.url}`)).toEqual(["GET /cloud/v1/tasks/t", "GET /cloud/v1/tasks/t"]);
      // If CimsClient dropped the clock or random options, the wait would run on the real clock
      // and these would differ (or the simulated task would never finish).
      expect(gets.map((t) => t - gets[0])).toEqual([0, 120]);
      expect(lag).toBe(20);
    });
  });
});

describe("looks answered by a shared task list", () => {
  /**
   * Under a rate limit the scope's lists are a second apart (task-board.ts): a look that needs a
   * newer list than the last waits for the next one, a second after the last. Alike tasks took
   * 1,950-2,050 ms; this one runs until `finishMs`.
   */
  async function pacedWait(finishMs: number, hints = hintsOf2s(), gapMs = 1_000) {
    const { clock, elapsed, run } = virtualTime();
    const gets: number[] = [];
    const lists: number[] = [];
    const getTask = async (id: string): Promise<Task> => {
      gets.push(elapsed());
      const done = elapsed() >= finishMs;
      return { id, state: done ? "FINISHED" : "RUNNING", task_type: "create_subnet", created_resources: done ? { subnets: [id] } : null };
    };
    const start = clock.now();
    let last = -Infinity; // when the last list was asked for (clock time)
    const left: number[] = []; // when a look stopped waiting for a list not sent yet
    const listed = async (id: string, since: number, signal?: AbortSignal) => {
      if (last < since) {
        if (last + gapMs > clock.now()) {
          try {
            await clock.sleep(last + gapMs - clock.now(), signal);
          } catch {
            left.push(elapsed());
            return undefined;
          }
        }
        last = clock.now();
        lists.push(elapsed());
      }
      return last - start < finishMs ? { task: { id, state: "RUNNING", task_type: "create_subnet" }, at: last } : undefined;
    };
    const opts = { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock, random: () => 0.5, hints, listed };
    const [task] = await run(waitForTasks(getTask, ["t"], opts));
    return { task, gets, lists, left };
  }

  function hintsOf2s() {
    const hints = new DurationHints();
    hints.learn("create_subnet", { below: 1_950, by: 2_050 });
    return hints;
  }

  test("a look at a hint's end reads the task by id at once, not after the next list (a second away when paced)", async () => {
    const { task, gets, lists } = await pacedWait(2_030);
    expect(task.state).toBe("FINISHED");
    // The first look shows its type; the next is the bracket's middle (2,000 ms, no look
    // between: alike tasks all ran past 1,950 ms), whose list shows it running. Read once, at
    // the bracket's end (2,050 ms), not after the list of 3,000 ms.
    expect(lists).toEqual([200, 2_000]);
    expect(gets).toEqual([2_050]);
  });

  test("a look waiting for the next list stops waiting at the hint's end and reads the task by id", async () => {
    // Lists 2 s apart: the look at the bracket's middle (2,000 ms) waits for the list of 2,200 ms.
    const { task, gets, lists, left } = await pacedWait(2_000, hintsOf2s(), 2_000);
    expect(task.state).toBe("FINISHED");
    // It stops waiting at the bracket's end (2,040 ms) and reads the task then; the list nobody waits for is not sent.
    expect({ gets, lists, left }).toEqual({ gets: [2_040], lists: [200], left: [2_040] });
  });

  test("a hint that was wrong costs one read by id; later looks go through the list again", async () => {
    const { task, gets, lists } = await pacedWait(4_000);
    expect(task.state).toBe("FINISHED");
    // The read at the bracket's end found it running; the next read is the one after the list stopped showing it.
    expect(gets).toHaveLength(2);
    expect(gets[0]).toBe(2_050);
    expect(gets[1]).toBeGreaterThanOrEqual(4_000);
    expect(lists.filter((at) => at > 2_040).length).toBeGreaterThan(0);
  });

  test("once a read at the hint's end found its task running, waits of the type do not read there until a task takes longer", async () => {
    const hints = hintsOf2s();
    expect(hints.endTrusted("create_subnet")).toBe(true);
    hints.claimEnd("create_subnet")!(false);
    expect(hints.endTrusted("create_subnet")).toBe(false);
    expect(hints.claimEnd("create_subnet")).toBeUndefined();
    hints.learn("create_subnet", { below: 1_900, by: 2_000 }); // a shorter end: no better
    expect(hints.endTrusted("create_subnet")).toBe(false);
    // No read at 1,990 ms: the task is read once, after the list of 2,200 ms stopped showing it.
    expect((await pacedWait(2_000, hints)).gets).toEqual([2_200]);
    hints.learn("create_subnet", { below: 2_500, by: 2_600 }); // a longer one: its end is worth a read again
    expect(hints.endTrusted("create_subnet")).toBe(true);
    // Its look after the one that showed its type is the bracket's middle (2,550 ms), whose
    // list no longer shows it: read then.
    expect((await pacedWait(2_550, hints)).gets).toEqual([2_550]);
    // That wait narrowed the bracket to 2,500-2,550 ms; a 4 s task is read at its end in vain,
    // then when the list stops showing it (looks a second apart by then: 3,550 and 4,550 ms),
    // and its end (later) restores the trust.
    expect((await pacedWait(4_000, hints)).gets).toEqual([2_550, 4_550]);
    expect(hints.endTrusted("create_subnet")).toBe(true);
  });

  test("until a read at a type's end found its task ended, one such read is under way at a time; once one did, any number", () => {
    const hints = hintsOf2s();
    const first = hints.claimEnd("create_subnet")!;
    expect(first).toBeDefined();
    // On trial: the second wait at the end reads through the list, whatever the first's latency.
    expect(hints.claimEnd("create_subnet")).toBeUndefined();
    first(undefined); // no answer (a failed read): on trial still, the next may try
    const second = hints.claimEnd("create_subnet")!;
    expect(hints.claimEnd("create_subnet")).toBeUndefined();
    second(true);
    const [a, b] = [hints.claimEnd("create_subnet"), hints.claimEnd("create_subnet")];
    expect(a).toBeDefined();
    expect(b).toBeDefined();
    // One of them finds its task running: the end is not read again until a later end is learned.
    a!(false);
    b!(true);
    expect(hints.endTrusted("create_subnet")).toBe(false);
    expect(hints.claimEnd("create_subnet")).toBeUndefined();
    // A trial under way when a later end is learned says nothing of that end.
    hints.learn("create_subnet", { below: 2_100, by: 2_300 });
    const stale = hints.claimEnd("create_subnet")!;
    hints.learn("create_subnet", { below: 2_400, by: 2_500 });
    stale(false);
    expect(hints.endTrusted("create_subnet")).toBe(true);
  });

  /**
   * A scope's list shared by several waits is up to LIST_FRESH_MS older than the look that uses
   * it (task-board.ts). Here every list answers 240 ms late unless the look asks for a newer one
   * (`since`); the task ends at 1,200 ms. Looks: 0.2, 0.32, 0.51, 0.82, 1.31 s; the last uses a
   * list from 1.07 s, which still shows it running. Scheduled from when the list showed it, the
   * next look is 1.07 + 0.64 = 1.71 s (a new list, then its read); scheduled from the look
   * itself, 1.31 + 0.79 = 2.10 s.
   */
  test("the next look is scheduled from when the list showed the task, so a stale list costs no whole interval", async () => {
    const clock = fakeClock();
    const finishAt = clock.now() + 1_200;
    const { gets, getTask } = simulatedTask(clock, finishAt);
    const lists: number[] = [];
    const listed = async (id: string, since: number) => {
      const now = clock.now();
      const at = now - 240 >= since ? now - 240 : now;
      lists.push(at);
      return at < finishAt ? { task: { id, state: "RUNNING", task_type: "create_subnet" }, at } : undefined;
    };
    const opts = { deadline: clock.now() + 60_000, timeoutSeconds: 60, clock, random: () => 0.5, hints: new DurationHints(), listed };
    const [task] = await waitForTasks(getTask, ["t"], opts);
    expect(task.state).toBe("FINISHED");
    // One read by id, when the list no longer shows it.
    expect(gets).toHaveLength(1);
    expect(Math.round(gets[0] - finishAt)).toBeLessThan(700);
  });
});
