// Bare-metal images over HTTP: made from a seeded volume, PATCH and DELETE
// (emulator/collections/baremetal-image.ts).
import { call, useEmulator, VOLUME, waitTask } from "./api";

useEmulator();

describe("images", () => {
  test("from a seeded volume, with defaults; the volume is locked meanwhile; PATCH and DELETE", async () => {
    const res = await call("POST", "/cloud/v1/bmimages/1/1", { name: "golden", volume_id: VOLUME, is_baremetal: true });
    expect((await call("POST", "/cloud/v1/bmimages/1/1", { name: "golden-2", volume_id: VOLUME })).status).toBe(409);
    const task = await waitTask(res.body.tasks[0]);
    const id = task.created_resources.images[0];
    const image = (await call("GET", `/cloud/v1/images/1/1/${id}`)).body;
    expect(image).toMatchObject({
      name: "golden",
      volume_id: VOLUME,
      architecture: "x86_64",
      os_type: "linux",
      // The vendor's record: the OS of the volume's image metadata, the region's name, tags as tags_v2.
      os_distro: "debian",
      os_version: "12",
      min_ram: 0,
      region: "Luxembourg",
      ssh_key: "allow",
      source: "volume",
      is_baremetal: true,
      hw_firmware_type: null,
    });
    expect(image).not.toHaveProperty("tags");
    const patched = await call("PATCH", `/cloud/v1/images/1/1/${id}`, { ssh_key: "deny", hw_machine_type: "pc", tags: { t: "v" } });
    expect(patched.body).toMatchObject({
      ssh_key: "deny",
      hw_machine_type: "i440", // the spec's pc, as records spell it
      tags_v2: [
        { key: "t", value: "v", read_only: false },
        { key: "creator_task_id", value: task.id, read_only: true },
      ],
    });
    expect((await call("PATCH", `/cloud/v1/images/1/1/${id}`, { architecture: "aarch64" })).status).toBe(400);
    await waitTask((await call("DELETE", `/cloud/v1/images/1/1/${id}`)).body.tasks[0]);
    expect((await call("GET", `/cloud/v1/images/1/1/${id}`)).status).toBe(404);
  });

  test("an unknown volume is 404; a bad enum is 400 naming the field", async () => {
    expect((await call("POST", "/cloud/v1/bmimages/1/1", { name: "x", volume_id: "33333333-3333-4333-8333-333333333333" })).status).toBe(
      404,
    );
    const res = await call("POST", "/cloud/v1/bmimages/1/1", { name: "x", volume_id: VOLUME, os_type: "macos" });
    expect(Object.keys(res.body.invalid_fields)).toEqual(["os_type"]);
  });
});
