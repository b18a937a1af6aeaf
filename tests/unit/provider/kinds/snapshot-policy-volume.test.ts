// SnapshotPolicyVolume: check and diff without the network, then its lifecycle in process on
// both faces (the provider as the engine calls it, against the emulator): create adds only its
// volume, destroy removes only it, another team's volumes are never touched, a volume the policy
// holds already is refused at preview and at up with nothing written (also when another attaches
// it between the up's read and its add), adoption (importId, `pulumi import`) writes nothing and
// is left by destroy unless deleteAdopted, and a volume gone from the policy is a resource gone.
import { SnapshotPolicyVolume } from "../../../../provider/kinds/snapshot-policy-volume";
import { setLogSink } from "../../../../provider/methods/context";
import { UNKNOWN } from "../../../../provider/methods/schema";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct } from "../../../../provider/plugin/values";
import { api, SEED, writes } from "../../../support/cims";
import { props, withScopeConfig } from "../../../support/check-diff";
import type { Emulated } from "../../../support/faults";
import { failureOf, type FaceName, providerOn, urnOf } from "../faults/faces";
import { configFor, withEmulatedState } from "../faults/matrix";

const { methods } = SnapshotPolicyVolume;
const POLICY = Number(SEED.policyId);
const APP = SEED.appVolumeId;
/** A volume of policy 101's scope, seeded by a test: another team's. */
const OTHER = "3c4d5e6f-7081-4b92-8c3d-4e5f6a7b8c9d";
const POLICY_PATH = `/cloud/v1/lifecycle_policy/1/1/${POLICY}`;
const ADD_ROUTE = "PUT /cloud/v1/lifecycle_policy/:project_id/:region_id/:policy_id/add_volumes_to_policy";
const REMOVE_ROUTE = "PUT /cloud/v1/lifecycle_policy/:project_id/:region_id/:policy_id/remove_volumes_from_policy";
const app = { policyId: POLICY, volumeId: APP };

const held = async (env: Emulated): Promise<string[]> =>
  ((await api(env, "GET", `${POLICY_PATH}?need_volumes=true`)).body.volumes as Array<{ volume_id: string }>).map((v) => v.volume_id).sort();

/** Another team attaches `volume` to the policy, outside Pulumi. */
async function attachOutside(env: Emulated, volume: string): Promise<void> {
  expect((await api(env, "PUT", `${POLICY_PATH}/add_volumes_to_policy`, { volume_ids: [volume] })).status).toBe(200);
}

async function seedOther(env: Emulated): Promise<void> {
  const volume = {
    name: "other-team",
    size: 10,
    status: "available",
    volume_type: "standard",
    bootable: false,
    project_id: 1,
    region_id: 1,
  };
  expect((await api(env, "POST", "/__emulator/seed", { volumes: [{ id: OTHER, ...volume }] })).status).toBe(204);
}

function lines(): string[] {
  const said: string[] = [];
  setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
  return said;
}

const refusal = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "passed",
    (err: unknown) => failureOf(err).message,
  );

const heldReason = (volume: string) => `volumeId: policy ${POLICY} already holds volume ${volume}`;
const adoptHint = (volume: string) => `set \`importId: "${POLICY}/${volume}"\``;

describe("SnapshotPolicyVolume check and diff", () => {
  withScopeConfig();

  test.each<[string, Record<string, unknown>, string[]]>([
    ["volumeId not uuid4", { volumeId: "vol-1" }, ["volumeId"]],
    ["no volumeId", { volumeId: undefined }, ["volumeId"]],
    ["policyId 0", { policyId: 0 }, ["policyId"]],
    ["an importId naming another membership", { importId: `${POLICY}/${SEED.volumeId}` }, ["importId"]],
  ])("%s fails naming %j", async (_case, change, expected) => {
    const { failures } = await methods.check({}, { ...app, ...change });
    expect(props(failures)).toEqual(expected);
    for (const f of failures ?? []) expect(f.reason).toContain(f.property);
  });

  test("unknown values (preview) are no failures and read nothing", async () => {
    expect((await methods.check({}, { policyId: UNKNOWN, volumeId: UNKNOWN })).failures).toEqual([]);
  });

  test.each([
    ["policyId", { policyId: 202 }],
    ["volumeId", { volumeId: SEED.volumeId }],
    ["projectId", { projectId: 9 }],
  ])("a change of %s replaces", async (field, change) => {
    const olds = { ...app, projectId: 1, regionId: 2, deleteAdopted: false };
    expect((await methods.diff(`${POLICY}/${APP}`, olds, { ...olds, ...change })).replaces).toEqual([field]);
  });

  test("deleteAdopted changes in place; importId never diffs", async () => {
    const olds = { ...app, projectId: 1, regionId: 2, deleteAdopted: false };
    const d = await methods.diff(`${POLICY}/${APP}`, olds, { ...olds, deleteAdopted: true, importId: `${POLICY}/${APP}` });
    expect(d.replaces).toEqual([]);
    expect(d.diffs).toEqual(["deleteAdopted"]);
  });
});

describe.each(["dynamic", "native"] as const)("a policy's volumes, %s face", (face: FaceName) => {
  test(
    "create adds only its volume, one PUT; another team's volumes stay through the stack's life and its destroy, which removes only its volume",
    () =>
      withEmulatedState("SnapshotPolicyVolume", face, async (env, state) => {
        await seedOther(env);
        env.emulator.metrics.reset();
        await state.up("app", app);
        expect(writes(env)).toEqual([`${ADD_ROUTE} 200 x1`]);
        expect(state.resources.get("app")).toMatchObject({ id: `${POLICY}/${APP}`, outs: { volumeName: "app-data", adopted: false } });
        expect(await held(env)).toEqual([SEED.volumeId, APP].sort());
        expect(await state.changes("app", app)).toBe(false);

        await attachOutside(env, OTHER);
        env.emulator.metrics.reset();
        await state.destroy("app");
        expect(writes(env)).toEqual([`${REMOVE_ROUTE} 200 x1`]);
        expect(await held(env)).toEqual([SEED.volumeId, OTHER].sort());
      }),
    60_000,
  );

  test(
    "a volume the policy holds already is refused at preview and at up, naming the policy, the volume and how to adopt it, and a policy not in the scope at preview; nothing written",
    () =>
      withEmulatedState("SnapshotPolicyVolume", face, async (env, state) => {
        env.emulator.metrics.reset();
        const taken = { policyId: POLICY, volumeId: SEED.volumeId };
        const previewed = await refusal(state.changes("golden", taken));
        expect(previewed).toContain(heldReason(SEED.volumeId));
        expect(previewed).toContain(adoptHint(SEED.volumeId));
        await expect(state.up("golden", taken)).rejects.toThrow(heldReason(SEED.volumeId));
        // No such policy in the scope: refused at preview too, naming policyId.
        expect(await refusal(state.changes("nowhere", { ...app, policyId: 202 }))).toContain(
          "policyId: no snapshot policy 202 in project 1, region 1 (check the id and the resource's projectId/regionId)",
        );
        expect(writes(env)).toEqual([]);

        // Attached by another after the preview: the up's own read refuses it before the add.
        const provider = await providerOn(face, "SnapshotPolicyVolume", configFor(env));
        const inputs = await provider.check({}, app);
        await attachOutside(env, APP);
        env.emulator.metrics.reset();
        const upped = await refusal(provider.create(inputs));
        expect(upped).toContain(heldReason(APP));
        expect(upped).toContain(adoptHint(APP));
        expect(failureOf(await provider.create(inputs).catch((e: unknown) => e)).id).toBeUndefined();
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
      }),
    60_000,
  );

  test(
    "a volume another attaches between the up's read and its add: the service refuses the add, and the resource fails, recording nothing",
    () =>
      withEmulatedState("SnapshotPolicyVolume", face, async (env) => {
        const provider = await providerOn(face, "SnapshotPolicyVolume", configFor(env));
        const inputs = await provider.check({}, app);
        // The add is held back 1.5 s after it arrives; meanwhile another team's add lands.
        const rule = { method: "PUT", path: `${POLICY_PATH}/add_volumes_to_policy`, count: 1, action: "delay", delayMs: 1500 };
        expect((await api(env, "POST", "/__emulator/faults", rule)).status).toBe(204);
        const creating = refusal(provider.create(inputs));
        while (env.emulator.faults.requestFaults.length > 0) await new Promise((r) => setTimeout(r, 20));
        await attachOutside(env, APP);
        const failed = await creating;
        expect(failed).toContain(`${heldReason(APP)} (someone attached it since this run read the policy`);
        expect(failed).toContain(adoptHint(APP));
        expect(await held(env)).toEqual([SEED.volumeId, APP].sort());
      }),
    60_000,
  );

  test(
    "adopted by importId: nothing written, recorded as adopted, left by destroy; deleteAdopted (an up that writes nothing) has destroy remove it",
    () =>
      withEmulatedState("SnapshotPolicyVolume", face, async (env, state) => {
        const golden = { policyId: POLICY, volumeId: SEED.volumeId, importId: `${POLICY}/${SEED.volumeId}` };
        const said = lines();
        env.emulator.metrics.reset();
        await state.up("golden", golden);
        expect(writes(env)).toEqual([]);
        expect(state.resources.get("golden")).toMatchObject({ id: `${POLICY}/${SEED.volumeId}`, outs: { adopted: true } });
        expect(said.join("\n")).toContain(`adopts policy volume ${POLICY}/${SEED.volumeId}; up will change nothing`);
        expect(await state.changes("golden", golden)).toBe(false);

        said.splice(0);
        await state.destroy("golden");
        expect(writes(env)).toEqual([]);
        expect(said.join("\n")).toContain(`policy volume ${POLICY}/${SEED.volumeId} left in the service, not deleted`);
        expect(await held(env)).toEqual([SEED.volumeId]);

        await state.up("golden", golden);
        await state.up("golden", { ...golden, deleteAdopted: true });
        expect(writes(env)).toEqual([]);
        await state.destroy("golden");
        expect(writes(env)).toEqual([`${REMOVE_ROUTE} 200 x1`]);
        expect(await held(env)).toEqual([]);

        // Nothing to adopt: refused at preview, naming importId.
        const missing = await refusal(state.changes("gone", golden));
        expect(missing).toContain(`importId: no policy volume ${POLICY}/${SEED.volumeId}`);
      }),
    60_000,
  );

  test(
    "refresh: the volume removed from the policy outside Pulumi is the resource gone, and the next up adds it again",
    () =>
      withEmulatedState("SnapshotPolicyVolume", face, async (env, state) => {
        await state.up("app", app);
        await state.refresh("app");
        expect(state.ids()).toEqual([`${POLICY}/${APP}`]);
        expect((await api(env, "PUT", `${POLICY_PATH}/remove_volumes_from_policy`, { volume_ids: [APP] })).status).toBe(200);
        await state.refresh("app");
        expect(state.ids()).toEqual([]);
        expect(await state.changes("app", app)).toBe(true);
        await state.up("app", app);
        expect(await held(env)).toEqual([SEED.volumeId, APP].sort());
      }),
    60_000,
  );
});

test(
  "pulumi import on the plugin face (<policyId>/<volumeId>) records adopted with nothing written: no change after, and destroy leaves the volume in the policy",
  () =>
    withEmulatedState("SnapshotPolicyVolume", "native", async (env, state) => {
      const handlers = providerServer(undefined) as unknown as Record<
        string,
        (call: { request: unknown }, done: (err: unknown, reply: unknown) => void) => void
      >;
      env.emulator.metrics.reset();
      const req = new providerPb.ReadRequest().setUrn(urnOf("SnapshotPolicyVolume")).setId(`${POLICY}/${SEED.volumeId}`);
      const resp = await new Promise<providerPb.ReadResponse>((resolve, reject) =>
        handlers.read({ request: req }, (err, reply) => (err ? reject(err) : resolve(reply as providerPb.ReadResponse))),
      );
      const outs = fromStruct(resp.getProperties());
      const inputs = fromStruct(resp.getInputs());
      expect(resp.getId()).toBe(`${POLICY}/${SEED.volumeId}`);
      expect(outs).toMatchObject({ adopted: true, volumeName: "golden-root" });
      expect(inputs).toEqual({ policyId: POLICY, volumeId: SEED.volumeId, projectId: 1, regionId: 1 });
      state.resources.set("golden", { id: resp.getId(), outs, inputs });
      expect(await state.changes("golden", inputs)).toBe(false);
      await state.destroy("golden");
      expect(writes(env)).toEqual([]);
      expect(await held(env)).toEqual([SEED.volumeId]);
    }),
  60_000,
);
