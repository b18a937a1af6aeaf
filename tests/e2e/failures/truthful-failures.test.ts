// Failures that tell the truth and adoption that says the right thing, under the
// real engine against the emulator:
// - adopting a subnet whose program takes networkId from a resource not made yet: preview
//   does not compare the unknown value with the record;
// - changing a replace-only field of an adopted subnet with importId kept: the error says how
//   to replace it (remove importId), and doing that replaces it, leaving the adopted record;
// An LbPoolSettings create whose reads all fail, and a `lastSending` with an hour-only offset,
// run in process on both faces: tests/unit/provider/faults/truthful-failures.test.ts.
import * as fs from "node:fs/promises";
import { api, type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const LEGACY_ID = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

const legacy = subnetRecord({ id: LEGACY_ID });

const stacks = useStacks();
const stackWith = (program: string) => stacks.stack({ files: { "Pulumi.yaml": "name: truthful\nruntime: nodejs\n", "index.ts": program } });
const rewrite = (e: CimsTestEnv, program: string) => fs.writeFile(`${e.stack.projectDir}/index.ts`, program);
const inState = async (e: CimsTestEnv, kind: string) =>
  ((await e.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.endsWith(`cims:${kind}`)).map((r) => String(r.id));

/** A new subnet, and the legacy one adopted on the network the new one's output names (unknown at preview). */
const adoptProgram = (o: { cidr: string; importId: boolean }) => `
import * as cims from "pulumi-cims";
const fresh = new cims.Subnet("fresh", { name: "fresh", cidr: "10.91.0.0/24", networkId: "${SEED.networkId}" });
new cims.Subnet("legacy", {
  name: "legacy", cidr: "${o.cidr}", networkId: fresh.networkId,
  ${o.importId ? `importId: "${LEGACY_ID}",` : ""}
});
`;

test(
  "adoption: an unknown networkId is not compared at preview; a changed cidr with importId kept says to remove importId, which replaces it",
  async () => {
    const env = await stackWith(adoptProgram({ cidr: "10.60.0.0/24", importId: true }));
    expect((await api(env, "POST", "/__emulator/seed", { subnets: [legacy] })).status).toBe(204);
    const preview = await env.stack.preview();
    expect(preview.stdout).not.toContain("04da6b54");
    await env.stack.up();
    expect((await inState(env, "Subnet")).sort()).toContain(LEGACY_ID);

    await rewrite(env, adoptProgram({ cidr: "10.61.0.0/24", importId: true }));
    const refused = await env.stack.preview([], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain('cidr: the subnet to adopt (importId 4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d) has "10.60.0.0/24"');
    expect(refused.stdout).toContain("remove `importId` from the resource");

    // The replacement creates first and leaves the adopted subnet, saying so (deleteAdopted would delete it).
    await rewrite(env, adoptProgram({ cidr: "10.61.0.0/24", importId: false }));
    const replaced = await env.stack.up();
    expect(replaced.stdout).toContain(`subnet ${LEGACY_ID} left in the service, not deleted: the resource adopted it`);
    const cidrs = env.emulator.store.list("subnets").map((s) => s.cidr);
    expect(cidrs.sort()).toEqual(["10.60.0.0/24", "10.61.0.0/24", "10.91.0.0/24"]);
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);
