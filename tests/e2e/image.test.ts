// BaremetalImage under the real engine: create from a seeded volume, no-op preview,
// in-place update, replacement (architecture), drift via refresh, destroy.
import { api, SEED, stateOf, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS } from "../support/harness";

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

    await api(env, "PATCH", `/cloud/v1/images/1/1/${String(replaced.id)}`, { ssh_key: "required" });
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
