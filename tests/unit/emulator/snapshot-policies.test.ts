// Lifecycle (snapshot) policies over HTTP (emulator/collections/snapshot-policy.ts, which serves SnapshotPolicyState too).
import { call, useEmulator, VOLUME } from "./api";

useEmulator();

describe("lifecycle policies", () => {
  test("PATCH status and name; volumes only with need_volumes=true", async () => {
    const res = await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "paused", name: "nightly" });
    expect(res.body).toMatchObject({
      id: 101,
      status: "paused",
      name: "nightly",
      action: "volume_snapshot",
      user_id: 7,
      project_id: 1,
      region_id: 1,
    });
    expect(res.body.schedules[0].resource_name_template).toContain("{volume_id}");
    expect(res.body.volumes).toEqual([]); // the vendor's model requires it; listed only when asked for
    const withVolumes = await call("GET", "/cloud/v1/lifecycle_policy/1/1/101?need_volumes=true");
    expect(withVolumes.body.volumes).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
    expect((await call("PATCH", "/cloud/v1/lifecycle_policy/1/1/101", { status: "stopped" })).status).toBe(400);
    expect((await call("GET", "/cloud/v1/lifecycle_policy/1/1/999")).status).toBe(404);
  });
});

describe("lifecycle policies made, changed and deleted (the vendor SDK's snapshot_schedules calls)", () => {
  const BASE = "/cloud/v1/lifecycle_policy/1/1";
  const cron = { type: "cron", hour: "2", minute: "30", max_quantity: 7, retention_time: { days: 7 } };
  const interval = { type: "interval", hours: 6, max_quantity: 4 };

  test("POST answers the policy (synchronous): schedules with the service's ids and owner, volumes only with need_volumes=true", async () => {
    const made = await call("POST", `${BASE}?need_volumes=true`, {
      action: "volume_snapshot",
      name: "db",
      schedules: [cron, interval],
      volume_ids: [VOLUME],
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: "db", status: "active", action: "volume_snapshot", project_id: 1, region_id: 1, user_id: 7 });
    expect(made.body.tasks).toBeUndefined();
    const [c, i] = made.body.schedules;
    expect(c).toMatchObject({ ...cron, owner: "lifecycle_policy", owner_id: made.body.id, user_id: 7 });
    expect(i).toMatchObject(interval);
    expect(c.id).not.toEqual(i.id);
    expect(made.body.volumes).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
    expect((await call("GET", `${BASE}/${made.body.id}`)).body.volumes).toEqual([]);
    const listed = (await call("GET", BASE)).body;
    expect(listed.results.map((p: { id: number }) => p.id)).toEqual([101, made.body.id]);
  });

  test("a schedule with neither cron nor interval, or with the other kind's fields, is a 400 naming it; nothing is made", async () => {
    const none = await call("POST", BASE, { action: "volume_snapshot", name: "db", schedules: [{ max_quantity: 1, hour: "2" }] });
    expect(none.status).toBe(400);
    expect(Object.keys(none.body.invalid_fields)).toEqual(["schedules[0].type"]);
    const mixed = await call("POST", BASE, {
      action: "volume_snapshot",
      name: "db",
      schedules: [{ type: "cron", hours: 2, max_quantity: 1 }],
    });
    expect(mixed.status).toBe(400);
    expect(Object.keys(mixed.body.invalid_fields)).toEqual(["schedules[0].hours"]);
    expect((await call("GET", BASE)).body.count).toBe(1);
  });

  test("a cron field outside the vendor's documented forms or range, or a time zone pytz does not know, is a 400 naming it; add_schedules too", async () => {
    const bad = { ...cron, minute: "60", day_of_week: "mon,funday", timezone: "Mars/Olympus" };
    const made = await call("POST", BASE, { action: "volume_snapshot", name: "db", schedules: [bad] });
    expect(made.status).toBe(400);
    expect(Object.keys(made.body.invalid_fields).sort()).toEqual([
      "schedules[0].day_of_week",
      "schedules[0].minute",
      "schedules[0].timezone",
    ]);
    const good = { ...cron, minute: "0,30", day_of_week: "mon,fri", month: "*", timezone: "Europe/Luxembourg" };
    const id = (await call("POST", BASE, { action: "volume_snapshot", name: "db", schedules: [good] })).body.id;
    const added = await call("POST", `${BASE}/${id}/add_schedules`, { schedules: [{ ...cron, hour: "24" }] });
    expect(added.status).toBe(400);
    expect(Object.keys(added.body.invalid_fields)).toEqual(["schedules[0].hour"]);
  });

  test("estimate_max_policy_usage: what the body's schedules keep at most of its volumes, the cost hidden; nothing is made; a bad body is a 400", async () => {
    const body = { action: "volume_snapshot", name: "db", schedules: [cron, interval], volume_ids: [VOLUME, VOLUME] };
    const estimate = await call("POST", `${BASE}/estimate_max_policy_usage`, body);
    expect(estimate.status).toBe(200);
    // Per volume: 7 + 4 snapshots; one volume (listed twice) of 20 GiB.
    expect(estimate.body).toEqual({
      max_volume_snapshot_sequence_length: 11,
      max_volume_snapshot_count_usage: 11,
      max_volume_snapshot_size_usage: 220,
      max_cost: expect.objectContaining({ price_status: "hide", tax_percent: 0 }),
    });
    expect((await call("GET", BASE)).body.count).toBe(1);
    const bad = await call("POST", `${BASE}/estimate_max_policy_usage`, { ...body, schedules: [{ ...cron, minute: "75" }] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.invalid_fields)).toEqual(["schedules[0].minute"]);
  });

  test("add_schedules and remove_schedules change one schedule at a time; an id not in the policy is a 400", async () => {
    const id = (await call("POST", BASE, { action: "volume_snapshot", name: "db", schedules: [cron] })).body.id;
    const added = await call("POST", `${BASE}/${id}/add_schedules`, { schedules: [interval] });
    expect(added.status).toBe(200);
    expect(added.body.schedules.map((s: { type: string }) => s.type)).toEqual(["cron", "interval"]);
    const cronId = added.body.schedules[0].id;
    const removed = await call("POST", `${BASE}/${id}/remove_schedules`, { schedule_ids: [cronId] });
    expect(removed.body.schedules.map((s: { type: string }) => s.type)).toEqual(["interval"]);
    const again = await call("POST", `${BASE}/${id}/remove_schedules`, { schedule_ids: [cronId] });
    expect(again.status).toBe(400);
    expect(again.body.invalid_fields.schedule_ids[0]).toContain(cronId);
    expect((await call("POST", `${BASE}/${id}/add_schedules`, { schedules: [{ max_quantity: 1 }] })).status).toBe(400);
  });

  test("a create naming a volume of another region or none at all is a 404; nothing is made (adding and removing volumes: snapshot-policy-volumes.test.ts)", async () => {
    const far = await call("POST", BASE, { action: "volume_snapshot", name: "db", volume_ids: ["c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f"] });
    expect(far.status).toBe(404);
    const none = await call("POST", BASE, { action: "volume_snapshot", name: "db", volume_ids: ["00000000-0000-4000-8000-000000000000"] });
    expect(none.status).toBe(404);
    expect((await call("POST", BASE, { action: "volume_snapshot", name: "db", volume_ids: ["not-a-volume"] })).status).toBe(400);
    expect((await call("GET", BASE)).body.count).toBe(1);
  });

  test("PATCH sets name and status only; DELETE removes the policy (204), then 404", async () => {
    const id = (await call("POST", BASE, { action: "volume_snapshot", name: "db" })).body.id;
    expect((await call("PATCH", `${BASE}/${id}`, { schedules: [cron] })).status).toBe(400);
    expect((await call("PATCH", `${BASE}/${id}`, { name: "db2", status: "paused" })).body).toMatchObject({ name: "db2", status: "paused" });
    expect((await call("DELETE", `${BASE}/${id}`)).status).toBe(204);
    expect((await call("GET", `${BASE}/${id}`)).status).toBe(404);
    expect((await call("DELETE", `${BASE}/${id}`)).status).toBe(404);
  });
});
