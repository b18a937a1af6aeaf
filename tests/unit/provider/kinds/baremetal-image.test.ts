// check() and diff() of BaremetalImage, and its mapping to and from the wire (no engine, no network).
import { BaremetalImage } from "../../../../provider/kinds/baremetal-image";
import { VOL, props, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

describe("BaremetalImage", () => {
  const ok = { name: "img", volumeId: VOL };
  test("defaults and both-way mapping", async () => {
    const { inputs } = await BaremetalImage.methods.check({}, ok);
    expect(inputs).toMatchObject({
      architecture: "x86_64",
      hwFirmwareType: null,
      hwMachineType: null,
      isBaremetal: false,
      osType: "linux",
      source: "volume",
      sshKey: "allow",
      tags: {},
    });
    const body = BaremetalImage.table.body(inputs);
    expect(body).toEqual({
      name: "img",
      volume_id: VOL,
      architecture: "x86_64",
      hw_firmware_type: null,
      hw_machine_type: null,
      is_baremetal: false,
      os_type: "linux",
      source: "volume",
      ssh_key: "allow",
      tags: {},
    });
    expect(BaremetalImage.table.fromRecord({ ...body, status: "active", created_at: "t", project_id: 1, region_id: 2 })).toMatchObject({
      volumeId: VOL,
      hwFirmwareType: null,
      isBaremetal: false,
      sshKey: "allow",
      status: "active",
    });
  });
  test.each<[Record<string, unknown>, string]>([
    [{ architecture: "arm64" }, "architecture"],
    [{ hwFirmwareType: "efi" }, "hwFirmwareType"],
    [{ hwMachineType: "i441" }, "hwMachineType"],
    [{ osType: "macos" }, "osType"],
    [{ source: "snapshot" }, "source"],
    [{ sshKey: "maybe" }, "sshKey"],
    [{ isBaremetal: 1 }, "isBaremetal"],
    [{ volumeId: "vol-1" }, "volumeId"],
  ])("%j fails on %s", async (change, property) => {
    expect(props((await BaremetalImage.methods.check({}, { ...ok, ...change })).failures)).toEqual([property]);
  });
  test("volumeId, architecture and source replace; the rest update in place", async () => {
    const { inputs: olds } = await BaremetalImage.methods.check({}, ok);
    expect((await BaremetalImage.methods.diff("id", olds, { ...olds, architecture: "aarch64" })).replaces).toEqual(["architecture"]);
    expect(await BaremetalImage.methods.diff("id", olds, { ...olds, sshKey: "deny", hwFirmwareType: "uefi" })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      diffs: ["hwFirmwareType", "sshKey"],
    });
    expect((await BaremetalImage.methods.diff("id", olds, { ...olds })).changes).toBe(false);
  });
  test("the image's facts the service keeps are outputs, and never a diff", async () => {
    const record = {
      ...BaremetalImage.table.body((await BaremetalImage.methods.check({}, ok)).inputs),
      status: "active",
      created_at: "2026-05-23T05:07:31",
      updated_at: "2026-05-24T08:00:00",
      size: 10737418240,
      min_disk: 10,
      min_ram: 512,
      disk_format: "raw",
      os_distro: "ubuntu",
      os_version: "24.04",
      visibility: "private",
      region: "Luxembourg",
      project_id: 1,
      region_id: 2,
    };
    const out = BaremetalImage.table.fromRecord(record);
    expect(out).toMatchObject({
      size: 10737418240,
      minDisk: 10,
      minRam: 512,
      diskFormat: "raw",
      osDistro: "ubuntu",
      osVersion: "24.04",
      visibility: "private",
      updatedAt: "2026-05-24T08:00:00",
      region: "Luxembourg",
    });
    const { inputs } = await BaremetalImage.methods.check({}, ok);
    expect((await BaremetalImage.methods.diff("id", { ...out, updatedAt: "2026-06-01T00:00:00" }, inputs)).changes).toBe(false);
  });
});
