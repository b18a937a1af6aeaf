// Tasks: their faults (ERROR, hang, keepCreated, alongside), their duration and their list
// (emulator/tasks.ts, emulator/routes/tasks.ts).
import { call, control, NET, useEmulator, waitTask } from "./api";

useEmulator();

describe("control API: faults, task duration, metrics, logs", () => {
  test.each([
    [{ count: 0, message: "x" }, "count must be a whole number >= 1, got 0"],
    [{ count: "1", message: "x" }, 'count must be a whole number >= 1, got "1"'],
    // "no" is truthy: the task used to hang.
    [{ hang: "no", message: "x" }, 'hang must be true or false, got "no"'],
    [{ hang: false }, "message is required (the ERROR's text), unless hang is true"],
    [{ message: "x", keep_created: true }, 'unknown field "keep_created"'],
  ])("a task fault with %p is refused: %s", async (extra, message) => {
    const res = await control("POST", "task-faults", { method: "POST", path: "/**", ...extra });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ exception_class: "ValidationError" });
    expect(res.body.message).toContain(message);
    expect((await control("GET", "faults")).body.task_faults).toEqual([]);
  });

  test("task faults: the next task for a path ends in ERROR with the message, or never finishes", async () => {
    await control("POST", "task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, message: "No more IPs in the pool" });
    const failed = await waitTask(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0],
    );
    expect(failed).toMatchObject({ state: "ERROR", error: "No more IPs in the pool" });
    await control("POST", "task-faults", { method: "POST", path: "/cloud/v1/subnets/1/1", count: 1, hang: true });
    const hung = (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0];
    jest.advanceTimersByTime(60 * 60_000); // an hour of emulator time; the task takes 250 ms
    const running = (await call("GET", `/cloud/v1/tasks/${hung}`)).body;
    expect(running.state).toBe("RUNNING");
    // A running create lists the id it allocated; the record appears when it finishes.
    expect(running.created_resources.subnets).toHaveLength(1);
    expect((await call("GET", `/cloud/v1/subnets/1/1/${running.created_resources.subnets[0]}`)).status).toBe(404);
  });

  test("task faults: keepCreated makes the resource, then ERROR; alongside adds a second task that fails beside the first", async () => {
    await control("POST", "task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "late failure",
      keepCreated: true,
    });
    const kept = await waitTask(
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0],
    );
    expect(kept).toMatchObject({ state: "ERROR", error: "late failure" });
    expect((await call("GET", `/cloud/v1/subnets/1/1/${kept.created_resources.subnets[0]}`)).status).toBe(200);

    await control("POST", "task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "second failed",
      alongside: true,
    });
    const two = (await call("POST", "/cloud/v1/subnets/1/1", { name: "t", cidr: "10.2.0.0/24", network_id: NET })).body.tasks;
    expect(two).toHaveLength(2);
    expect(await waitTask(two[0])).toMatchObject({ state: "FINISHED" });
    expect(await waitTask(two[1])).toMatchObject({ state: "ERROR", error: "second failed" });
    expect((await control("POST", "task-faults", { method: "POST", path: "/x", keepCreated: "yes", message: "m" })).status).toBe(400);
  });

  test("task duration is adjustable; metrics count requests by route, connections, GETs per task and lag", async () => {
    expect((await control("PUT", "task-duration", { ms: 50 })).status).toBe(204);
    const id = (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET })).body.tasks[0];
    await waitTask(id);
    const metrics = (await control("GET", "metrics")).body;
    expect(metrics.requests["POST /cloud/v1/subnets/:project_id/:region_id 200"]).toBe(1);
    expect(metrics.requests["GET /cloud/v1/tasks/:task_id 200"]).toBeGreaterThanOrEqual(1);
    expect(metrics.connections).toBeGreaterThanOrEqual(1);
    const task = metrics.tasks.find((t: { id: string }) => t.id === id);
    expect(task.duration_ms).toBe(50);
    expect(task.gets).toBeGreaterThanOrEqual(1);
    expect(task.lag_ms).toBeGreaterThanOrEqual(0);
  });

  test("the list: by state, or (from_timestamp) every task created at or after a time, ended or not; a time it cannot read is refused", async () => {
    const post = async (cidr: string) =>
      (await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr, network_id: NET })).body.tasks[0] as string;
    const first = await post("10.5.0.0/24");
    await waitTask(first);
    jest.advanceTimersByTime(2_000); // the next task's created_on is seconds later
    const second = await post("10.6.0.0/24");
    const since = (await call("GET", `/cloud/v1/tasks/${second}`)).body.created_on as string;
    const ids = async (query: string) =>
      ((await call("GET", `/cloud/v1/tasks?project_id=1&region_id=1&${query}`)).body.results as Array<{ id: string }>).map((t) => t.id);
    expect(await ids("state=NEW&state=RUNNING")).toEqual([second]);
    expect(await ids("state=FINISHED")).toEqual([first]);
    await waitTask(second);
    // The service's own spelling (UTC, no zone) and a client's (with one) name the same time.
    expect(await ids(`from_timestamp=${since}`)).toEqual([second]);
    expect(await ids(`from_timestamp=${since}Z`)).toEqual([second]);
    expect(await ids(`from_timestamp=${encodeURIComponent(new Date(Date.parse(`${since}Z`) - 60_000).toISOString())}`)).toEqual([
      first,
      second,
    ]);
    const bad = await call("GET", "/cloud/v1/tasks?from_timestamp=yesterday");
    expect(bad.status).toBe(400);
    expect(bad.body.invalid_fields).toHaveProperty("from_timestamp");
  });
});
