// Lifecycle (snapshot) policies over HTTP (emulator/collections/snapshot-policy-state.ts).
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
