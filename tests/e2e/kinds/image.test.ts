// BaremetalImage under the real engine: create from a seeded volume, no-op preview,
// in-place update, replacement (architecture, then another volume), drift via refresh, destroy.
import { api, SEED, stateOf, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

test(
  "BaremetalImage lifecycle",
  async () => {
    const env = await stacks.program("image", { volumeId: SEED.volumeId });
    const { stack } = env;
    await stack.up();
    const first = await stack.outputs();
    const image = (await api(env, "GET", `/cloud/v1/images/1/1/${String(first.id)}`)).body;
    expect(image).toMatchObject({
      name: "e2e-image",
      volume_id: SEED.volumeId,
      architecture: "x86_64",
      ssh_key: "allow",
      hw_firmware_type: null,
    });
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("sshKey", "deny");
    await stack.setConfig("firmware", "uefi");
    await stack.up();
    expect((await stack.outputs()).id).toBe(first.id);
    expect((await api(env, "GET", `/cloud/v1/images/1/1/${String(first.id)}`)).body).toMatchObject({
      ssh_key: "deny",
      hw_firmware_type: "uefi",
    });
    await stack.preview(["--expect-no-changes"]);

    await stack.setConfig("architecture", "aarch64");
    await stack.up();
    const replaced = await stack.outputs();
    expect(replaced.id).not.toBe(first.id);
    expect((await api(env, "GET", `/cloud/v1/images/1/1/${String(first.id)}`)).status).toBe(404);
    expect(env.emulator.store.list("images")).toHaveLength(1);

    // Another volume: a replacement too, made from it.
    const volume = {
      id: "d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f60",
      name: "second-root",
      size: 20,
      status: "available",
      bootable: true,
      project_id: 1,
      region_id: 1,
    };
    expect((await api(env, "POST", "/__emulator/seed", { volumes: [volume] })).status).toBe(204);
    await stack.setConfig("volumeId", volume.id);
    await stack.up();
    const moved = await stack.outputs();
    expect(moved.id).not.toBe(replaced.id);
    expect((await api(env, "GET", `/cloud/v1/images/1/1/${String(replaced.id)}`)).status).toBe(404);
    expect(env.emulator.store.list("images").map((i) => [i.id, i.volume_id])).toEqual([[moved.id, volume.id]]);

    await api(env, "PATCH", `/cloud/v1/images/1/1/${String(moved.id)}`, { ssh_key: "required" });
    await stack.refresh();
    expect((await stateOf(env, "BaremetalImage"))?.sshKey).toBe("required");
    expect((await stack.preview(["--diff"])).stdout).toMatch(/~ sshKey\s*: "required" => "deny"/);
    await stack.up();
    await stack.refresh(["--expect-no-changes"]);

    await stack.destroy();
    expect(env.emulator.store.list("images")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);
