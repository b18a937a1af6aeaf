// Adopting what already exists, under the real engine, against an emulator seeded with
// records Pulumi never made: `importId` adopts with one PATCH of what differs, removing
// importId later changes nothing, destroy leaves what was adopted (saying so) unless the program
// says deleteAdopted, which an up records with no write. In process, on both
// faces: the check that refuses, before any write, a record that is missing or differs where
// it cannot change (tests/unit/provider/kinds/adopt-check.test.ts), and a create whose answer
// was lost finding its own record (tests/unit/provider/faults/creates-ours-only.test.ts), and
// what a delete leaves (tests/unit/provider/kinds/adopt-delete.test.ts). The stack is on the plugin
// face, the cheaper one: adoption is the provider's, the same behind either face, and the
// engine's part (retainOnDelete, a replacement's order) is the engine's alone; the dynamic face
// adopts with importId, with no write and then no change, in tests/e2e/import/cims-import.test.ts.
import * as fs from "node:fs/promises";
import { api, type CimsTestEnv, onFace, PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { imageRecord, subnetRecord } from "../../support/records";

const SUBNET_ID = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const IMAGE_ID = "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";

/** Records as the service holds them, made by hand (or another tool), not by this stack. */
const seed = {
  subnets: [subnetRecord({ id: SUBNET_ID, total_ips: 254, available_ips: 253, tags: { team: "net" } })],
  images: [imageRecord({ id: IMAGE_ID })],
};

const dynamicProgram = (o: {
  team?: string;
  cidr?: string;
  subnetImport?: string | null;
  imageImport?: string | null;
  retainImage?: boolean;
  deleteSubnet?: boolean;
}) => `
import * as cims from "pulumi-cims";
new cims.Subnet("legacy", {
  name: "legacy", cidr: "${o.cidr ?? "10.60.0.0/24"}", networkId: "${SEED.networkId}", tags: { team: "${o.team ?? "net"}" },
  ${o.subnetImport === null ? "" : `importId: "${o.subnetImport ?? SUBNET_ID}",`}
  ${o.deleteSubnet ? "deleteAdopted: true," : ""}
});
new cims.BaremetalImage("golden", {
  name: "golden", volumeId: "${SEED.volumeId}", isBaremetal: true,
  ${o.imageImport === null ? "" : `importId: "${o.imageImport ?? IMAGE_ID}",`}
}, { retainOnDelete: ${o.retainImage ?? false} });
`;
const program = (o: Parameters<typeof dynamicProgram>[0]) => onFace(dynamicProgram(o), "native");

const stacks = useStacks();

async function seeded(source: string): Promise<CimsTestEnv> {
  const e = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("adopt"), "index.ts": source } });
  expect((await api(e, "POST", "/__emulator/seed", seed)).status).toBe(204);
  e.emulator.metrics.reset();
  return e;
}
const rewrite = (e: CimsTestEnv, source: string) => fs.writeFile(`${e.stack.projectDir}/index.ts`, source);

test(
  "adopting with a changed tag: preview says what up will change and that destroy leaves it; up makes one PATCH and no POST; then no diff, importId removable; destroy leaves what was adopted, but with deleteAdopted",
  async () => {
    const env = await seeded(program({ team: "platform" }));
    const preview = await env.stack.preview();
    expect(preview.stdout).toContain(
      `Subnet "legacy": adopts subnet ${SUBNET_ID}; up will change tags; destroy leaves it in the service unless the resource has \`deleteAdopted: true\``,
    );
    expect(preview.stdout).toContain(`BaremetalImage "golden": adopts image ${IMAGE_ID}; up will change nothing`);
    expect(writes(env)).toEqual([]);

    await env.stack.up();
    expect(writes(env)).toEqual(["PATCH /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
    const ids = Object.fromEntries(
      ((await env.stack.exportState()).deployment.resources ?? []).map((r) => [r.type.split(":").pop(), r.id]),
    );
    expect(ids).toMatchObject({ Subnet: SUBNET_ID, BaremetalImage: IMAGE_ID });
    expect(env.emulator.store.list("subnets")).toHaveLength(1);
    expect(env.emulator.store.get("subnets", SUBNET_ID)?.tags).toEqual([
      { key: "team", value: "platform", read_only: false },
      { key: "creator_task_id", value: "0f0e0d0c-0b0a-4908-8706-050403020100", read_only: true },
    ]);
    await env.stack.preview(["--expect-no-changes"]);
    await env.stack.refresh(["--expect-no-changes"]);

    // A replacement that adopts the same record does not then delete it.
    const subnetUrn = ((await env.stack.exportState()).deployment.resources ?? []).find((r) => r.type === "cims:index:Subnet")!.urn;
    const replaced = await env.stack.up(["--replace", subnetUrn]);
    expect(replaced.stdout).toContain("left as it is: its replacement in this run adopted the same record");
    expect(env.emulator.store.get("subnets", SUBNET_ID)).toBeDefined();
    expect(writes(env).filter((w) => w.startsWith("DELETE"))).toEqual([]);

    // importId matters only when creating: removing (or changing) it changes nothing.
    await rewrite(
      env,
      program({ team: "platform", subnetImport: null, imageImport: "6c3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f", retainImage: true }),
    );
    await env.stack.up(["--expect-no-changes"]); // no change of any resource; the state records retainOnDelete

    // The subnet's program says deleteAdopted (recorded with no write); the image's retainOnDelete goes.
    await rewrite(env, program({ team: "platform", subnetImport: null, imageImport: null, deleteSubnet: true }));
    env.emulator.metrics.reset();
    await env.stack.up();
    expect(writes(env)).toEqual([]);
    await env.stack.preview(["--expect-no-changes"]);
    const destroyed = await env.stack.destroy();
    expect(env.emulator.store.get("subnets", SUBNET_ID)).toBeUndefined(); // adopted, deleteAdopted: deleted
    expect(env.emulator.store.get("images", IMAGE_ID)).toBeDefined(); // adopted: left, and said
    expect(writes(env)).toEqual(["DELETE /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
    expect(destroyed.stdout).toContain(
      `BaremetalImage "golden" (${IMAGE_ID}): image ${IMAGE_ID} left in the service, not deleted: the resource adopted it`,
    );
  },
  E2E_TIMEOUT_MS,
);
