// A policy's volumes one by one over HTTP (emulator/collections/snapshot-policy-volume.ts): the
// vendor SDK's add_volumes and remove_volumes, PUTs that answer the policy with its volumes.
import { call, useEmulator, VOLUME } from "./api";

useEmulator();

const POLICY = "/cloud/v1/lifecycle_policy/1/1/101";
const ADD = `${POLICY}/add_volumes_to_policy`;
const REMOVE = `${POLICY}/remove_volumes_from_policy`;
/** The seed's volume of project 1, region 1 that no policy holds. */
const APP = "2b3c4d5e-6f70-4a81-9b2c-3d4e5f6a7b8c";
/** The seed's volume of project 2, region 3. */
const PROD = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";

const volumes = async () => (await call("GET", `${POLICY}?need_volumes=true`)).body.volumes;

describe("a policy's volumes", () => {
  test("add names only the given volume beside those held, remove takes only it away; each answers the policy with its volumes", async () => {
    const added = await call("PUT", ADD, { volume_ids: [APP] });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: 101, name: "nightly-snapshots", project_id: 1, region_id: 1 });
    expect(added.body.volumes).toEqual([
      { volume_id: VOLUME, volume_name: "golden-root" },
      { volume_id: APP, volume_name: "app-data" },
    ]);
    expect(await volumes()).toEqual(added.body.volumes);
    const removed = await call("PUT", REMOVE, { volume_ids: [APP] });
    expect(removed.status).toBe(200);
    expect(removed.body.volumes).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
    // A volume the policy does not hold: nothing changes.
    expect((await call("PUT", REMOVE, { volume_ids: [APP] })).body.volumes).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
  });

  test("a volume the policy holds already is refused (409), and nothing of the call is applied", async () => {
    const res = await call("PUT", ADD, { volume_ids: [APP, VOLUME] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ exception_class: "ConflictError", message: `Volume ${VOLUME} is already in lifecycle policy 101.` });
    expect(await volumes()).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
  });

  test.each<[string, string, unknown, number, string]>([
    ["an unknown volume", ADD, { volume_ids: ["5f6a7b8c-9d0e-4f1a-8b2c-3d4e5f6a7b8c"] }, 404, "NotFoundError"],
    ["a volume of another region", ADD, { volume_ids: [PROD] }, 404, "NotFoundError"],
    ["a volume of another region, removed", REMOVE, { volume_ids: [PROD] }, 404, "NotFoundError"],
    ["an empty list", ADD, { volume_ids: [] }, 400, "ValidationError"],
    ["an empty list, removed", REMOVE, { volume_ids: [] }, 400, "ValidationError"],
    ["no list", ADD, {}, 400, "ValidationError"],
    ["an unknown policy", "/cloud/v1/lifecycle_policy/1/1/999/add_volumes_to_policy", { volume_ids: [APP] }, 404, "NotFoundError"],
    ["a policy of another scope", "/cloud/v1/lifecycle_policy/1/1/202/add_volumes_to_policy", { volume_ids: [APP] }, 404, "NotFoundError"],
  ])("%s is refused", async (_case, path, body, status, exceptionClass) => {
    const res = await call("PUT", path, body);
    expect(res.status).toBe(status);
    expect(res.body.exception_class).toBe(exceptionClass);
    if (status === 400) expect(Object.keys(res.body.invalid_fields)).toEqual(["volume_ids"]);
    expect(await volumes()).toEqual([{ volume_id: VOLUME, volume_name: "golden-root" }]);
  });
});
