// examples/multi-env deployed as its dev and as its prod stack against the emulator: the
// same program, with Pulumi.<stack>.yaml deciding project, region and sizes. Only the
// endpoint and key are pointed at the test's emulator. Only prod's stack is previewed again
// and destroyed: dev's holds the same resources as prod's, with one member where prod has three,
// a paused policy where prod's is active and another threshold, so prod's no-op preview is the
// example's (that a paused policy, a pool member and a threshold each converge is
// lifecycle.test.ts's), at about 5 s of CPU each (the example's tsconfig.json has its program
// type-checked on every run); and a destroy runs no program, only the provider over the state,
// so prod's (the members out of the pool, then the subnet they used) is the example's.
import * as path from "node:path";
import { api, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT } from "../../support/harness";

const stacks = useStacks();

const program = path.join(REPO_ROOT, "examples/multi-env");

test.each([
  ["dev", { project: "1", region: "1", members: 1, snapshots: "paused", threshold: 90, cidr: "10.40.0.0/26", walk: false }],
  ["prod", { project: "2", region: "3", members: 3, snapshots: "active", threshold: 75, cidr: "10.50.0.0/22", walk: true }],
] as const)(
  "multi-env %s: up (then, on prod, a no-op preview and destroy)",
  async (stackName, expected) => {
    // Pulumi.<stack>.yaml comes with the program; the project and region must come from it.
    const env = await stacks.stack({
      programDir: program,
      stackName,
      config: { "cims:projectId": expected.project, "cims:regionId": expected.region },
    });
    await env.stack.up();
    const out = await env.stack.outputs();
    expect(out).toMatchObject({
      poolMemberCount: expected.members,
      snapshotStatus: expected.snapshots,
      quotaAlertPercent: expected.threshold,
    });
    const subnet = (await api(env, "GET", `/cloud/v1/subnets/${expected.project}/${expected.region}/${String(out.subnetId)}`)).body;
    expect(subnet).toMatchObject({
      cidr: expected.cidr,
      tags: expect.arrayContaining([
        { key: "env", value: stackName, read_only: false },
        { key: "managed-by", value: "pulumi", read_only: false },
      ]),
    });
    if (!expected.walk) return;
    await env.stack.preview(["--expect-no-changes"]);
    await env.stack.destroy();
    expect(env.emulator.store.list("subnets")).toHaveLength(0);
  },
  E2E_TIMEOUT_MS,
);
