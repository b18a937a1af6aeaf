// The shared snapshot policy in the lifecycle model: the program attaches its own volume to the
// seed's policy (SnapshotPolicyVolume `pvol`, while the program says `policyVolume`), and another
// team's stack attaches its own volume to the same policy. After every command
// (checkForeignUntouched) that team's volume and the one the policy held before any stack are in
// the policy: neither stack's adds, removes or destroys touch a volume the other attached.
import fc from "fast-check";
import { api, faceProject, onFace } from "../support/cims";
import { createStack, stackTemplate, type TestStack } from "../support/harness";
import type { Cmd, Model } from "./commands";
import { checkForeignUntouched, InvariantError } from "./invariants";
import { POLICY_ID } from "./program";
import type { System } from "./system";

/** The other team's volume, seeded when that team first attaches it. */
const OTHER_VOLUME = "4d5e6f70-8192-4a3b-9c4d-5e6f7a8b9c0d";

async function otherPolicyStack(sys: System): Promise<TestStack> {
  const known = sys.thirdStacks.get("policy") as TestStack | undefined;
  if (known) return known;
  const volume = {
    name: "other-team-data",
    size: 10,
    status: "in-use",
    volume_type: "standard",
    bootable: false,
    project_id: 1,
    region_id: 1,
  };
  const seeded = await api(sys.env, "POST", "/__emulator/seed", { volumes: [{ id: OTHER_VOLUME, ...volume }] });
  if (seeded.status !== 204) throw new Error(`seeding the other team's volume failed: ${JSON.stringify(seeded.body)}`);
  const program = onFace(
    `"use strict";\nconst cims = require("pulumi-cims");\nnew cims.SnapshotPolicyVolume("theirs", ${JSON.stringify({ policyId: POLICY_ID, volumeId: OTHER_VOLUME })});\n`,
    sys.face,
  );
  const stack = await createStack(
    {
      typeCheck: false,
      files: { "Pulumi.yaml": faceProject("lifecycle-model-policy-other", sys.face), "index.js": program },
      config: { "cims:apiUrl": sys.env.emulator.url, "cims:projectId": "1", "cims:regionId": "1" },
      secrets: { "cims:apiKey": sys.env.apiKey },
    },
    // The run's stack template, as the program's own stack: its config written before `stack init`, a CLI start less.
    await stackTemplate(),
  );
  sys.thirdStacks.set("policy", stack);
  return stack;
}

/** Another team's stack attaches its own volume to the policy with a SnapshotPolicyVolume. */
class OtherStackAttachesVolume implements Cmd {
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(_m: Model, sys: System): Promise<void> {
    if (sys.otherPolicyVolumes.has(OTHER_VOLUME)) return;
    const up = await (await otherPolicyStack(sys)).up([], { allowFailure: true });
    sys.history.push(`other stack attaches volume ${OTHER_VOLUME} -> exit ${up.code}`);
    if (up.code !== 0)
      throw new InvariantError(`the other stack's up failed:\n${(up.stdout + up.stderr).split("\n").slice(-30).join("\n")}`);
    sys.otherPolicyVolumes.add(OTHER_VOLUME);
    checkForeignUntouched(sys, await sys.resources());
  }
  toString(): string {
    return `another stack attaches its volume ${OTHER_VOLUME} to policy ${POLICY_ID} (SnapshotPolicyVolume)`;
  }
}

export const otherStackAttachesVolume = (): Cmd => new OtherStackAttachesVolume();
export const policySharingCommands: Array<fc.Arbitrary<Cmd>> = [fc.constant(otherStackAttachesVolume())];
