// What was adopted is not deleted unless the program says so, in process on both faces (the
// provider as the engine calls it, against the emulator): a record adopted by importId, by the
// plugin's `pulumi import` (Read with no properties) or recorded before the `adopted` output
// (its importId in the state) is left by destroy and by a replacement's delete, with a line
// naming it, its id and `deleteAdopted`; `deleteAdopted: true`, set with an up that writes
// nothing, has them deleted; a replacement that would have to delete an adopted record first
// fails its diff (the preview) naming the property. A pool member another stack's member
// create made, adopted by importId, survives this stack's destroy. Under the real engine:
// tests/e2e/import/adopt.test.ts.
import { setLogSink } from "../../../../provider/methods/context";
import { forgetRun } from "../../../../provider/methods/run-memory";
import { providerPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct } from "../../../../provider/plugin/values";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { subnetRecord } from "../../../support/records";
import { type FaceName, providerOn, urnOf } from "../faults/faces";
import { configFor, stateOn, withEmulatedState } from "../faults/matrix";

const SUBNET_ID = "4a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
const legacy = { name: "legacy", cidr: "10.60.0.0/24", networkId: SEED.networkId, tags: { team: "net" } };
const SUBNET_ROUTE = "/cloud/v1/subnets/:project_id/:region_id/:subnet_id";

async function seedSubnet(env: Emulated): Promise<void> {
  const seeded = await api(env, "POST", "/__emulator/seed", { subnets: [subnetRecord({ id: SUBNET_ID, tags: { team: "net" } })] });
  expect(seeded.status).toBe(204);
  env.emulator.metrics.reset();
}

/** What the provider says, from now on. */
function lines(): string[] {
  const said: string[] = [];
  setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
  return said;
}

const leftLine = (what: string, noun: string, id: string) =>
  `warning: cims: ${what}: ${noun} ${id} left in the service, not deleted: the resource adopted it (importId, \`pulumi import\` or ` +
  `cims-import) rather than created it. To have it deleted with the resource, set \`deleteAdopted: true\` on the resource and run ` +
  `\`pulumi up\` (it writes nothing to the service), then destroy; or delete ${noun} ${id} yourself`;

const subnetIds = (env: Emulated) =>
  env.emulator.store
    .list("subnets")
    .map((s) => String(s.id))
    .sort();

const memberIds = async (env: Emulated): Promise<string[]> =>
  ((await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body.members as Array<{ id: string }>).map((m) => m.id);

describe.each(["dynamic", "native"] as const)("adopted records on delete, %s face", (face: FaceName) => {
  test(
    "adopted by importId: the preview says destroy leaves it, the state says adopted, destroy sends no DELETE and says so; a created subnet is deleted",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await seedSubnet(env);
        const said = lines();
        await state.up("legacy", { ...legacy, importId: SUBNET_ID });
        expect(said).toContain(
          `info: cims: Subnet "legacy": adopts subnet ${SUBNET_ID}; up will change nothing; destroy leaves it in the service unless the resource has \`deleteAdopted: true\``,
        );
        expect(state.resources.get("legacy")?.outs.adopted).toBe(true);
        await state.up("fresh", { name: "fresh", cidr: "10.61.0.0/24", networkId: SEED.networkId });
        expect(state.resources.get("fresh")?.outs.adopted).toBe(false);
        // Spelling the default changes nothing.
        expect(await state.changes("legacy", { ...legacy, importId: SUBNET_ID, deleteAdopted: false })).toBe(false);

        env.emulator.metrics.reset();
        said.splice(0);
        await state.destroy("legacy");
        expect(writes(env)).toEqual([]);
        expect(said).toEqual([leftLine(`Subnet "legacy" (${SUBNET_ID})`, "subnet", SUBNET_ID)]);
        await state.destroy("fresh");
        expect(writes(env)).toEqual([`DELETE ${SUBNET_ROUTE} 200 x1`]);
        expect(subnetIds(env)).toEqual([SUBNET_ID]);
      }),
    60_000,
  );

  test(
    "a state written before the adopted output (its importId in the outputs) is adopted: left; deleteAdopted: true, set by an up that writes nothing and replaces nothing, has destroy delete it",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await seedSubnet(env);
        const program = { ...legacy, importId: SUBNET_ID };
        await state.up("legacy", program);
        const recorded = state.resources.get("legacy")!;
        const { adopted: _adopted, ...before } = recorded.outs;
        expect(before.importId).toBe(SUBNET_ID);
        state.resources.set("legacy", { ...recorded, outs: before });
        expect(await state.changes("legacy", program)).toBe(false);

        const provider = await providerOn(face, "Subnet", configFor(env));
        lines();
        env.emulator.metrics.reset();
        await provider.delete(SUBNET_ID, before);
        expect(writes(env)).toEqual([]);
        expect(subnetIds(env)).toEqual([SUBNET_ID]);

        const deleting = { ...program, deleteAdopted: true };
        expect(await state.shown("legacy", deleting)).toEqual(["deleteAdopted"]);
        expect(await provider.deleteFirst(SUBNET_ID, before, deleting)).toBe(false);
        await state.up("legacy", deleting);
        expect(writes(env)).toEqual([]);
        expect(state.resources.get("legacy")?.outs).toMatchObject({ adopted: true, deleteAdopted: true });
        expect(await state.changes("legacy", deleting)).toBe(false);
        await state.destroy("legacy");
        expect(writes(env)).toEqual([`DELETE ${SUBNET_ROUTE} 200 x1`]);
        expect(subnetIds(env)).toEqual([]);
      }),
    60_000,
  );

  test(
    "a replacement that must delete an adopted subnet first fails its diff naming cidr and deleteAdopted; with deleteAdopted: true it deletes it first; one that creates first leaves it",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await seedSubnet(env);
        await state.up("legacy", { ...legacy, importId: SUBNET_ID });
        const { outs, inputs } = state.resources.get("legacy")!;
        const provider = await providerOn(face, "Subnet", configFor(env));
        lines();
        forgetRun();
        const overlapping = await provider.check(inputs, { ...legacy, cidr: "10.60.0.0/23" });
        await expect(provider.diff(SUBNET_ID, outs, overlapping)).rejects.toThrow(
          `cidr: the replacement of Subnet "legacy" (${SUBNET_ID}) must delete the subnet first (the service refuses overlapping subnets ` +
            "on one network), but the resource adopted that subnet rather than created it, and an adopted subnet is left in the " +
            "service unless the program says otherwise: set `deleteAdopted: true` on the resource to have this replacement delete it, " +
            "or change cidr so that the new subnet and the old one can both exist",
        );

        // Elsewhere on the network: created first, and the old adopted subnet is left.
        forgetRun();
        const apart = await provider.check(inputs, { ...legacy, cidr: "10.61.0.0/24" });
        expect(await provider.deleteFirst(SUBNET_ID, outs, apart)).toBe(false);
        const made = await provider.create(apart);
        env.emulator.metrics.reset();
        await provider.delete(SUBNET_ID, outs);
        expect(writes(env)).toEqual([]);
        expect(subnetIds(env)).toEqual([made.id, SUBNET_ID].sort());

        // The program says deleteAdopted: the diff asks delete-first, and the delete (given the old state) follows the program.
        forgetRun();
        const deleting = await provider.check(inputs, { ...legacy, cidr: "10.60.0.0/23", deleteAdopted: true });
        expect(await provider.deleteFirst(SUBNET_ID, outs, deleting)).toBe(true);
        await provider.delete(SUBNET_ID, outs);
        expect(writes(env)).toEqual([`DELETE ${SUBNET_ROUTE} 200 x1`]);
        expect(subnetIds(env)).toEqual([made.id]);
      }),
    60_000,
  );

  test(
    "a pool member another stack's member create made, adopted by importId: this stack's destroy leaves it, the stack that made it removes it",
    () =>
      withEmulatedState("LbPoolMember", face, async (env, theirs) => {
        const member = { poolId: SEED.poolId, address: "10.0.0.55", protocolPort: 8080 };
        await theirs.up("web", member);
        const [id] = theirs.ids();
        const ours = await stateOn(face, "LbPoolMember", env);
        const said = lines();
        await ours.up("web", { ...member, importId: id });
        expect(ours.resources.get("web")?.outs.adopted).toBe(true);
        env.emulator.metrics.reset();
        await ours.destroy("web");
        expect(writes(env)).toEqual([]);
        expect(said).toContain(leftLine(`LbPoolMember 10.0.0.55:8080 of pool ${SEED.poolId} (${id})`, "pool member", id));
        expect(await memberIds(env)).toContain(id);
        await theirs.destroy("web");
        expect(await memberIds(env)).not.toContain(id);
      }),
    60_000,
  );
});

test(
  "pulumi import on the plugin face (Read with no properties) records adopted: no change after, and destroy leaves the subnet",
  () =>
    withEmulatedState("Subnet", "native", async (env, state) => {
      await seedSubnet(env);
      const handlers = providerServer(undefined) as unknown as Record<
        string,
        (call: { request: unknown }, done: (err: unknown, reply: unknown) => void) => void
      >;
      const req = new providerPb.ReadRequest().setUrn(urnOf("Subnet")).setId(`1/1/${SUBNET_ID}`);
      const resp = await new Promise<providerPb.ReadResponse>((resolve, reject) =>
        handlers.read({ request: req }, (err, reply) => (err ? reject(err) : resolve(reply as providerPb.ReadResponse))),
      );
      const outs = fromStruct(resp.getProperties());
      const inputs = fromStruct(resp.getInputs());
      expect(outs.adopted).toBe(true);
      expect(inputs).not.toHaveProperty("importId");
      state.resources.set("legacy", { id: resp.getId(), outs, inputs });
      expect(await state.changes("legacy", inputs)).toBe(false);
      const said = lines();
      env.emulator.metrics.reset();
      await state.destroy("legacy");
      expect(writes(env)).toEqual([]);
      expect(said).toEqual([leftLine(`Subnet "legacy" (${SUBNET_ID})`, "subnet", SUBNET_ID)]);
      expect(subnetIds(env)).toEqual([SUBNET_ID]);
    }),
  60_000,
);
