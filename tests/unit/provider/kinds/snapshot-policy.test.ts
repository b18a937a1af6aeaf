// SnapshotPolicy in process on both faces (the provider as the engine calls it, against the
// emulator): a create is one POST (its name carrying the create's mark) and a PATCH setting the name; name and status one PATCH; each schedule added and removed
// on its own (a changed one removed and added, the preview saying so); each volume likewise;
// others' schedules and volumes left, a listed volume others added refused at preview; delete
// one DELETE; invalid inputs refused by check with no request at all; a policy adopted by
// importId or `pulumi import` with no write, left by destroy but for the schedules and volumes the
// stack added to it.
import { setLogSink } from "../../../../provider/methods/context";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct } from "../../../../provider/plugin/values";
import { type FaceName, urnOf } from "../faults/faces";
import { type State, stateOn, withEmulatedState } from "../faults/matrix";

const POLICY = "/cloud/v1/lifecycle_policy/:project_id/:region_id";
const ITEM = `${POLICY}/:policy_id`;
const VOLUME_A = "0a1b2c3d-4e5f-4a6b-8c7d-000000000001";
const VOLUME_B = "0a1b2c3d-4e5f-4a6b-8c7d-000000000002";
const FAR_VOLUME = "0a1b2c3d-4e5f-4a6b-8c7d-000000000003";

const nightly = {
  type: "cron",
  hour: "2",
  minute: "30",
  maxQuantity: 7,
  retentionTime: { days: 7 },
  resourceNameTemplate: "n {volume_id}",
};
const hourly = { type: "interval", hours: 1, maxQuantity: 24 };
const cron = (fields: Record<string, string>) => ({ type: "cron", maxQuantity: 1, ...fields });
const program = { name: "db", schedules: [nightly, hourly], volumeIds: [VOLUME_A] };

async function seedVolumes(env: Emulated): Promise<void> {
  const volume = (id: string, name: string, region: number) => ({
    id,
    name,
    size: 10,
    status: "available",
    project_id: 1,
    region_id: region,
  });
  const seeded = await api(env, "POST", "/__emulator/seed", {
    volumes: [volume(VOLUME_A, "a", 1), volume(VOLUME_B, "b", 1), volume(FAR_VOLUME, "far", 2)],
  });
  expect(seeded.status).toBe(204);
  env.emulator.metrics.reset();
}

/** Every request since the metrics were reset, reads included. */
const requests = (env: Emulated) => Object.keys(env.emulator.metrics.snapshot().requests);

const policyOf = (env: Emulated, state: State, name = "p") => env.emulator.store.get("lifecycle_policies", state.resources.get(name)!.id)!;
const schedulesOf = (env: Emulated, state: State) =>
  (policyOf(env, state).schedules as Array<Record<string, unknown>>).map(({ type, hour, hours }) => ({ type, hour, hours }));
const volumesOf = (env: Emulated, state: State) =>
  (policyOf(env, state).volumes as Array<{ volume_id: string }>).map((v) => v.volume_id).sort();

function lines(): string[] {
  const said: string[] = [];
  setLogSink((line) => void said.push(line));
  return said;
}

async function refusal(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => "",
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
}

describe.each(["dynamic", "native"] as const)("SnapshotPolicy, %s face", (face: FaceName) => {
  test("invalid inputs are refused by check naming the property, with no request", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: "p", schedules: [{ type: "cron", hours: 2, maxQuantity: 1 }] }, /schedules\[0\]\.hours: is for interval schedules/],
        [{ name: "p", schedules: [{ type: "interval", maxQuantity: 1 }] }, /schedules\[0\]\.type: an interval schedule needs one of/],
        [{ name: "p", schedules: [{ hour: "2", maxQuantity: 1 }] }, /schedules\[0\]\.type/],
        [{ name: "p", schedules: [{ type: "cron", hour: "2" }] }, /schedules\[0\]\.maxQuantity/],
        [{ name: "p", status: "stopped" }, /status/],
        [
          { name: "p", schedules: [cron({ minute: "60" })] },
          /schedules\[0\]\.minute: must be `\*` or a comma-separated list of 0-59 .*: 60 is outside 0-59/,
        ],
        [{ name: "p", schedules: [cron({ hour: "1,,2" })] }, /schedules\[0\]\.hour: .*an empty item/],
        [
          { name: "p", schedules: [cron({ minute: "*/15" })] },
          /schedules\[0\]\.minute: .*"\*\/15" is a range or step.*write its values, "0,15,30,45"/,
        ],
        [{ name: "p", schedules: [cron({ dayOfWeek: "1-5" })] }, /schedules\[0\]\.dayOfWeek: .*write its values, "1,2,3,4,5"/],
        [{ name: "p", schedules: [cron({ dayOfWeek: "monday" })] }, /schedules\[0\]\.dayOfWeek: must be .* or mon,tue,wed,thu,fri,sat,sun/],
        [{ name: "p", schedules: [cron({ day: "0" })] }, /schedules\[0\]\.day: .*0 is outside 1-31/],
        [{ name: "p", schedules: [cron({ month: "13" })] }, /schedules\[0\]\.month: .*13 is outside 1-12/],
        [{ name: "p", schedules: [cron({ week: "54" })] }, /schedules\[0\]\.week: .*54 is outside 1-53/],
        [{ name: "p", schedules: [cron({ timezone: "Mars/Olympus" })] }, /schedules\[0\]\.timezone: must be an IANA time zone/],
        [{ name: "p", schedules: [cron({ timezone: "+01:00" })] }, /schedules\[0\]\.timezone: must be an IANA time zone/],
        [{ name: "" }, /name/],
        [{ name: "p", schedules: [hourly, { ...hourly }] }, /schedules\[1\]: the same as schedules\[0\]/],
        [{ name: "p", volumeIds: ["vol-1"] }, /volumeIds\[0\]/],
      ];
      env.emulator.metrics.reset();
      for (const [inputs, reason] of cases) expect(await refusal(state.up("p", inputs))).toMatch(reason);
      expect(requests(env)).toEqual([]);
    }));

  test("cron fields in the vendor's documented forms and IANA time zones, aliases and UTC included, pass the check", () =>
    withEmulatedState("SnapshotPolicy", face, async (_env, state) => {
      const documented = [
        cron({
          minute: "0,30",
          hour: "*",
          day: "1,15,31",
          month: "1,12",
          week: "1,53",
          dayOfWeek: "mon,fri",
          timezone: "Europe/Luxembourg",
        }),
        cron({ minute: "0", dayOfWeek: "0,6", timezone: "UTC" }),
        cron({ minute: "59", hour: "23", timezone: "US/Eastern" }),
      ];
      for (const schedule of documented) expect(await refusal(state.changes("p", { name: "p", schedules: [schedule] }))).toBe("");
    }));

  test("create is one POST and the PATCH that sets its name (the create's mark out); name and status one PATCH; a changed schedule is removed and added, the preview saying so; delete one DELETE", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      await seedVolumes(env);
      await state.up("p", program);
      expect(writes(env)).toEqual([`POST ${POLICY} 200 x1`, `PATCH ${ITEM} 200 x1`]);
      expect(policyOf(env, state)).toMatchObject({ name: "db", status: "active", action: "volume_snapshot" });
      expect(schedulesOf(env, state)).toEqual([
        { type: "cron", hour: "2", hours: undefined },
        { type: "interval", hour: undefined, hours: 1 },
      ]);
      expect(volumesOf(env, state)).toEqual([VOLUME_A]);
      expect(await state.changes("p", program)).toBe(false);
      expect(await state.changes("p", { ...program, schedules: [hourly, nightly] })).toBe(false);

      env.emulator.metrics.reset();
      await state.up("p", { ...program, name: "db2", status: "paused" });
      expect(writes(env)).toEqual([`PATCH ${ITEM} 200 x1`]);
      expect(policyOf(env, state)).toMatchObject({ name: "db2", status: "paused" });

      const changed = { ...program, name: "db2", status: "paused", schedules: [{ ...nightly, hour: "3" }, hourly] };
      expect(await state.shown("p", changed)).toEqual(["schedules"]);
      const said = lines();
      expect(await state.changes("p", changed)).toBe(true);
      const cronId = (policyOf(env, state).schedules as Array<{ id: string }>)[0].id;
      expect(said.join("\n")).toContain(`removes schedule ${cronId}`);
      expect(said.join("\n")).toContain("adds schedule");
      env.emulator.metrics.reset();
      await state.up("p", changed);
      expect(writes(env)).toEqual([`POST ${ITEM}/remove_schedules 200 x1`, `POST ${ITEM}/add_schedules 200 x1`]);
      expect(schedulesOf(env, state)).toEqual([
        { type: "interval", hour: undefined, hours: 1 },
        { type: "cron", hour: "3", hours: undefined },
      ]);
      expect(await state.changes("p", changed)).toBe(false);

      env.emulator.metrics.reset();
      await state.up("p", { ...changed, schedules: [hourly] });
      expect(writes(env)).toEqual([`POST ${ITEM}/remove_schedules 200 x1`]);
      expect(schedulesOf(env, state)).toEqual([{ type: "interval", hour: undefined, hours: 1 }]);

      env.emulator.metrics.reset();
      const id = state.resources.get("p")!.id;
      await state.destroy("p");
      expect(writes(env)).toEqual([`DELETE ${ITEM} 204 x1`]);
      expect(env.emulator.store.get("lifecycle_policies", id)).toBeUndefined();
    }));

  test("others' schedules and volumes are left; a listed volume others added is refused at preview; volumes one by one", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      await seedVolumes(env);
      await state.up("p", program);
      const id = state.resources.get("p")!.id;
      // Another stack (or the console) adds a schedule and a volume to the policy.
      expect(
        (
          await api(env, "POST", `/cloud/v1/lifecycle_policy/1/1/${id}/add_schedules`, {
            schedules: [{ type: "cron", hour: "9", max_quantity: 1 }],
          })
        ).status,
      ).toBe(200);
      expect((await api(env, "PUT", `/cloud/v1/lifecycle_policy/1/1/${id}/add_volumes_to_policy`, { volume_ids: [VOLUME_B] })).status).toBe(
        200,
      );
      env.emulator.metrics.reset();

      // The preview (check and diff) refuses it already.
      const previewed = await refusal(state.changes("p", { ...program, volumeIds: [VOLUME_A, VOLUME_B] }));
      expect(previewed).toContain(`volumeIds: volume ${VOLUME_B} is already in policy ${id}, and this stack did not put it there`);
      const refused = await refusal(state.up("p", { ...program, volumeIds: [VOLUME_A, VOLUME_B] }));
      expect(refused).toContain(`volumeIds: volume ${VOLUME_B} is already in policy ${id}, and this stack did not put it there`);
      expect(writes(env)).toEqual([]);

      await state.refresh("p");
      expect(await state.changes("p", program)).toBe(false);
      await state.up("p", { ...program, schedules: [nightly], volumeIds: [] });
      expect(writes(env)).toEqual([`POST ${ITEM}/remove_schedules 200 x1`, `PUT ${ITEM}/remove_volumes_from_policy 200 x1`]);
      expect(schedulesOf(env, state)).toEqual([
        { type: "cron", hour: "2", hours: undefined },
        { type: "cron", hour: "9", hours: undefined },
      ]);
      expect(volumesOf(env, state)).toEqual([VOLUME_B]);

      env.emulator.metrics.reset();
      await state.up("p", { ...program, schedules: [nightly], volumeIds: [VOLUME_A] });
      expect(writes(env)).toEqual([`PUT ${ITEM}/add_volumes_to_policy 200 x1`]);
      expect(volumesOf(env, state)).toEqual([VOLUME_A, VOLUME_B]);

      // A volume of another region is the service's 404, named.
      expect(await refusal(state.up("p", { ...program, schedules: [nightly], volumeIds: [VOLUME_A, FAR_VOLUME] }))).toContain(FAR_VOLUME);
    }));

  test("a schedule of the stack's removed outside Pulumi: a name change writes the name only; refresh shows it gone, and up adds it back", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      await seedVolumes(env);
      await state.up("p", program);
      const id = state.resources.get("p")!.id;
      const [cron] = policyOf(env, state).schedules as Array<{ id: string }>;
      expect((await api(env, "POST", `/cloud/v1/lifecycle_policy/1/1/${id}/remove_schedules`, { schedule_ids: [cron.id] })).status).toBe(
        200,
      );
      env.emulator.metrics.reset();
      await state.up("p", { ...program, name: "db3" });
      expect(writes(env)).toEqual([`PATCH ${ITEM} 200 x1`]);
      expect(schedulesOf(env, state)).toEqual([{ type: "interval", hour: undefined, hours: 1 }]);
      await state.refresh("p");
      expect(await state.changes("p", { ...program, name: "db3" })).toBe(true);
      env.emulator.metrics.reset();
      await state.up("p", { ...program, name: "db3" });
      expect(writes(env)).toEqual([`POST ${ITEM}/add_schedules 200 x1`]);
      expect(await state.changes("p", { ...program, name: "db3" })).toBe(false);
    }));

  test("importId with another name: one PATCH of the name, the schedules adopted, none added", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      const seeded = env.emulator.store.get("lifecycle_policies", 101)!;
      const [held] = seeded.schedules as Array<Record<string, unknown>>;
      env.emulator.metrics.reset();
      await state.up("p", {
        name: "renamed",
        importId: 101,
        schedules: [
          {
            type: "cron",
            hour: "2",
            minute: "30",
            maxQuantity: 7,
            day: "*",
            dayOfWeek: "*",
            month: "*",
            week: "*",
            timezone: "UTC",
            retentionTime: { days: 7, hours: 0, minutes: 0, weeks: 0 },
            resourceNameTemplate: held.resource_name_template,
          },
        ],
      });
      expect(writes(env)).toEqual([`PATCH ${ITEM} 200 x1`]);
      expect(env.emulator.store.get("lifecycle_policies", 101)).toMatchObject({ name: "renamed", schedules: seeded.schedules });
    }));

  test("importId adopts a policy with no write when the program matches; destroy leaves it", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      const seeded = env.emulator.store.get("lifecycle_policies", 101)!;
      const schedule = {
        type: "cron",
        maxQuantity: 7,
        retentionTime: { days: 7, hours: 0, minutes: 0, weeks: 0 },
        day: "*",
        dayOfWeek: "*",
        hour: "2",
        minute: "30",
        month: "*",
        week: "*",
        timezone: "UTC",
        resourceNameTemplate: "reserve snap of the volume {volume_id}",
      };
      const adopting = { name: seeded.name, schedules: [schedule], importId: 101 };
      env.emulator.metrics.reset();
      await state.up("p", adopting);
      expect(writes(env)).toEqual([]);
      expect(state.resources.get("p")).toMatchObject({ id: "101", outs: { adopted: true } });
      expect(await state.changes("p", adopting)).toBe(false);
      // Its volume is someone else's: listing it is refused at preview.
      const taken = seeded.volumes as Array<{ volume_id: string }>;
      expect(await refusal(state.changes("p", { ...adopting, volumeIds: [taken[0].volume_id] }))).toContain(
        "this stack did not put it there",
      );
      await state.destroy("p");
      expect(writes(env)).toEqual([]);
      expect(env.emulator.store.get("lifecycle_policies", 101)).toMatchObject({ name: seeded.name, schedules: seeded.schedules });
    }));

  test("an adopted policy's destroy removes the schedules and volumes the stack added, through refresh and a changed schedule, and leaves the policy's own", () =>
    withEmulatedState("SnapshotPolicy", face, async (env, state) => {
      await seedVolumes(env);
      const seeded = structuredClone(env.emulator.store.get("lifecycle_policies", 101)!);
      const own = {
        type: "cron",
        maxQuantity: 7,
        retentionTime: { days: 7, hours: 0, minutes: 0, weeks: 0 },
        day: "*",
        dayOfWeek: "*",
        hour: "2",
        minute: "30",
        month: "*",
        week: "*",
        timezone: "UTC",
        resourceNameTemplate: "reserve snap of the volume {volume_id}",
      };
      const adopting = { name: seeded.name, schedules: [own, hourly], volumeIds: [VOLUME_A], importId: 101 };
      await state.up("p", adopting);
      await state.refresh("p");
      // The schedule the stack added, changed: removed and added again, still the stack's.
      const changed = { ...adopting, schedules: [own, { ...hourly, hours: 2 }] };
      await state.up("p", changed);
      await state.refresh("p");
      const said = lines();
      env.emulator.metrics.reset();
      await state.destroy("p");
      expect(writes(env)).toEqual([`POST ${ITEM}/remove_schedules 200 x1`, `PUT ${ITEM}/remove_volumes_from_policy 200 x1`]);
      const left = env.emulator.store.get("lifecycle_policies", 101)!;
      expect(left.schedules).toEqual(seeded.schedules);
      expect(left.volumes).toEqual(seeded.volumes);
      expect(said.join("\n")).toContain(`removed what the stack added to the policy (schedule `);
    }));
});

test("pulumi import of a SnapshotPolicy on the plugin face (Read with no properties) records adopted: the same program changes nothing, destroy leaves it", () =>
  withEmulatedState("SnapshotPolicy", "native", async (env, state) => {
    const handlers = providerServer(undefined) as unknown as Record<
      string,
      (call: { request: unknown }, done: (err: unknown, reply: unknown) => void) => void
    >;
    env.emulator.metrics.reset();
    const req = new providerPb.ReadRequest().setUrn(urnOf("SnapshotPolicy")).setId("1/1/101");
    const resp = await new Promise<providerPb.ReadResponse>((resolve, reject) =>
      handlers.read({ request: req }, (err, reply) => (err ? reject(err) : resolve(reply as providerPb.ReadResponse))),
    );
    const outs = fromStruct(resp.getProperties());
    const inputs = fromStruct(resp.getInputs());
    expect(resp.getId()).toBe("101");
    expect(outs).toMatchObject({ adopted: true, name: "nightly-snapshots" });
    expect(inputs).toMatchObject({ name: "nightly-snapshots", schedules: [{ type: "cron", hour: "2", maxQuantity: 7 }] });
    state.resources.set("p", { id: "101", outs, inputs });
    expect(await state.changes("p", inputs)).toBe(false);
    await state.destroy("p");
    expect(writes(env)).toEqual([]);
    expect(env.emulator.store.get("lifecycle_policies", 101)).toBeDefined();
  }));

test("SnapshotPolicy and a SnapshotPolicyVolume on its policy do not fight: each refuses the other's volume, and removes only its own", () =>
  withEmulatedState("SnapshotPolicy", "dynamic", async (env, state) => {
    await seedVolumes(env);
    await state.up("p", program);
    const policyId = Number(state.resources.get("p")!.id);
    const member = await stateOn("dynamic", "SnapshotPolicyVolume", env);
    // Another stack attaches its volume to the policy the stack made.
    await member.up("v", { policyId, volumeId: SEED.appVolumeId });
    expect(await refusal(state.changes("p", { ...program, volumeIds: [VOLUME_A, SEED.appVolumeId] }))).toContain(
      "this stack did not put it there",
    );
    // The member kind refuses the policy's own volume likewise.
    expect(await refusal(member.up("w", { policyId, volumeId: VOLUME_A }))).toContain(VOLUME_A);
    env.emulator.metrics.reset();
    await state.up("p", { ...program, volumeIds: [] });
    expect(writes(env)).toEqual([`PUT ${ITEM}/remove_volumes_from_policy 200 x1`]);
    expect(volumesOf(env, state)).toEqual([SEED.appVolumeId]);
    await state.destroy("p");
  }));
