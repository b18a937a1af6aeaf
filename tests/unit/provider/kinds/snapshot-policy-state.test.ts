// check() and diff() of SnapshotPolicyState, and its mapping to and from the wire (no engine, no network).
import { policyTable, snapshotPolicyStateMethods } from "../../../../provider/kinds/snapshot-policy-state";
import { props, withScopeConfig } from "../../../support/check-diff";

withScopeConfig();

describe("SnapshotPolicyState", () => {
  test("rules, defaults and mapping", async () => {
    expect(props((await snapshotPolicyStateMethods.check({}, { policyId: 1, status: "stopped" })).failures)).toEqual(["status"]);
    expect(props((await snapshotPolicyStateMethods.check({}, { policyId: "1" })).failures)).toEqual(["policyId"]);
    const { inputs } = await snapshotPolicyStateMethods.check({}, { policyId: 101, status: "paused" });
    expect(inputs).toEqual({ policyId: 101, status: "paused", includeVolumes: false, projectId: 1, regionId: 2 });
    const out = policyTable.fromRecord({
      id: 101,
      name: "n",
      status: "paused",
      action: "volume_snapshot",
      user_id: 7,
      schedules: [{ max_quantity: 2, retention_time: { days: 1 }, resource_name_template: "{volume_id}" }],
      volumes: [{ volume_id: "v", volume_name: "n" }],
      project_id: 1,
      region_id: 2,
    });
    expect(out).toEqual({
      policyId: 101,
      name: "n",
      status: "paused",
      action: "volume_snapshot",
      userId: 7,
      schedules: [{ maxQuantity: 2, retentionTime: { days: 1 }, resourceNameTemplate: "{volume_id}" }],
      volumes: [{ volumeId: "v", volumeName: "n" }],
      projectId: 1,
      regionId: 2,
    });
    expect(policyTable.fromRecord({ id: 1 })).not.toHaveProperty("volumes");
  });
  test("omitted name/status are unmanaged; policyId replaces", async () => {
    const olds = { policyId: 101, name: "n", status: "active", includeVolumes: false, projectId: 1, regionId: 2 };
    expect(
      (await snapshotPolicyStateMethods.diff("101", olds, { policyId: 101, includeVolumes: false, projectId: 1, regionId: 2 })).changes,
    ).toBe(false);
    expect((await snapshotPolicyStateMethods.diff("101", olds, { ...olds, status: "paused" })).replaces).toEqual([]);
    expect((await snapshotPolicyStateMethods.diff("101", olds, { ...olds, policyId: 102 })).replaces).toEqual(["policyId"]);
  });
});
