// `pulumi import --out` on the plugin face settles: for every kind, the program the engine
// writes (YAML) previews with no changes and no warnings. The imported inputs are what that
// program says: no null the program leaves out (a pool's absent secrets and timeouts would
// read as "removed from the program" on every preview), and the kind's own defaults (a
// policy's includeVolumes: false, which the table alone does not fill).
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, PLUGIN_PROJECT, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { imageRecord, subnetRecord } from "../../support/records";
import { KIND_NAMES } from "../../../provider/kinds/registry";

const stacks = useStacks();
const LEGACY = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const IMAGE = "5b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e";
const POOL2 = "6c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
const MEMBER = "8c9d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0e1f";

test(
  "the program pulumi import --out writes for every kind previews with no changes and no warnings",
  async () => {
    const header = PLUGIN_PROJECT("import-settles", "yaml");
    const env = await stacks.stack({ files: { "Pulumi.yaml": header } });
    const seeded = await api(env, "POST", "/__emulator/seed", {
      subnets: [subnetRecord({ id: LEGACY, tags: { team: "net" } })],
      images: [imageRecord({ id: IMAGE, tags: { team: "img" } })],
    });
    expect(seeded.status).toBe(204);
    // A second pool holding one member in the legacy subnet, for LbPoolMember (the seeded
    // pool's member has no subnet, so it makes no valid LbPoolMember).
    const { body: webPool } = await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`);
    const member = { id: MEMBER, address: "10.60.0.10", protocol_port: 8080, weight: 1, subnet_id: LEGACY, admin_state_up: true };
    const second = await api(env, "POST", "/__emulator/seed", { lbpools: [{ ...webPool, id: POOL2, name: "members", members: [member] }] });
    expect(second.status).toBe(204);
    const bulk = {
      resources: [
        { type: "cims:index:Subnet", name: "legacy", id: LEGACY },
        { type: "cims:index:BaremetalImage", name: "golden", id: IMAGE },
        { type: "cims:index:LbPoolSettings", name: "pool", id: SEED.poolId },
        { type: "cims:index:SnapshotPolicyState", name: "policy", id: SEED.policyId },
        { type: "cims:index:QuotaThreshold", name: "quota", id: SEED.clientId },
        { type: "cims:index:LbPoolMember", name: "member", id: `${POOL2}/${MEMBER}` },
        // The seeded policy whole, beside its state, and its seeded volume's membership.
        { type: "cims:index:SnapshotPolicy", name: "snapshots", id: SEED.policyId },
        { type: "cims:index:SnapshotPolicyVolume", name: "snapshotted", id: `${SEED.policyId}/${SEED.volumeId}` },
      ],
    };
    await fs.writeFile(path.join(env.stack.projectDir, "import.json"), JSON.stringify(bulk));
    const out = path.join(env.stack.projectDir, "imported.yaml");
    await env.stack.run(["import", "-f", "import.json", "--yes", "--protect=false", "--out", out, "--stack", env.stack.name]);
    const written = await fs.readFile(out, "utf8");
    // Every kind the package serves: a kind without a `pulumi import` here fails this test.
    for (const kind of KIND_NAMES) {
      expect(written).toMatch(new RegExp(`type: cims:(index:)?${kind}\\n`));
    }
    await fs.writeFile(path.join(env.stack.projectDir, "Pulumi.yaml"), header + written);

    env.emulator.metrics.reset();
    const preview = await env.stack.preview(["--expect-no-changes", "--diff", "--color", "never"], { allowFailure: true });
    expect(preview.stdout + preview.stderr).not.toMatch(/warning|removed from the program/i);
    expect(preview.code).toBe(0);
    expect(writes(env)).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);
