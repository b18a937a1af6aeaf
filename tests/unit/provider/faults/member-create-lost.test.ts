// An LbPoolMember create never takes a member it cannot prove it made, in process on both
// faces (the provider as the engine calls it, against the emulator): a member already at the
// address and port fails the check (the preview), naming it and how to adopt it; a create
// whose answer was lost fails truthfully, records nothing and takes no member by address and
// port (members carry no tags, so there is no mark to look for), and the next create refuses
// the member its lost POST made, naming it, writing nothing.
import { api, SEED, writes } from "../../../support/cims";
import { MEMBERS, poolMembers, sleep } from "../../../support/faults";
import { subnetRecord } from "../../../support/records";
import type { Emulated } from "../../../support/faults";
import { failureOf } from "./faces";
import { withEmulatedState } from "./matrix";

const ROW_TIMEOUT_MS = 60_000;
const SUBNET_ID = "6e7f8a9b-0c1d-4e2f-8a3b-4c5d6e7f8a9b";
const member = (address: string) => ({ poolId: SEED.poolId, address, protocolPort: 8080, subnetId: SUBNET_ID, weight: 2 });

/** The subnet the members are in, seeded: it holds the pool's seeded member's address too. */
async function seedSubnet(env: Emulated): Promise<void> {
  const subnet = subnetRecord({ id: SUBNET_ID, name: "members", cidr: "10.0.0.0/16", gateway_ip: "10.0.0.1" });
  expect((await api(env, "POST", "/__emulator/seed", { subnets: [subnet] })).status).toBe(204);
}

describe.each(["dynamic", "native"] as const)("LbPoolMember create, in process, %s face", (face) => {
  test(
    "a member already at the address and port fails the check, naming it and how to adopt it",
    () =>
      withEmulatedState("LbPoolMember", face, async (env, state) => {
        await seedSubnet(env);
        env.emulator.metrics.reset();
        const failure = await state.up("web-1", member("10.0.0.10")).then(() => undefined, failureOf);
        expect(failure?.message).toContain(`address: pool ${SEED.poolId} already has member ${SEED.keptMemberId} at 10.0.0.10:8080`);
        expect(failure?.message).toContain(`set \`importId: "${SEED.keptMemberId}"\``);
        expect(writes(env)).toEqual([]);
        // Another team's member untouched (poolMembers checks it), and no other.
        expect(await poolMembers(env)).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a create whose answer was lost fails truthfully: nothing recorded, no member taken by address and port; the next create names the member to adopt, writing nothing",
    () =>
      withEmulatedState("LbPoolMember", face, async (env, state) => {
        await seedSubnet(env);
        // The service acts on the POST, then the connection drops before the answer.
        await api(env, "POST", "/__emulator/faults", { method: "POST", path: MEMBERS, count: 1, action: "close-after" });
        const failure = await state.up("web-1", member("10.0.0.20")).then(() => undefined, failureOf);
        expect(failure?.message).toContain("The service may have created LbPoolMember 10.0.0.20:8080");
        expect(failure?.message).toContain(`GET ${MEMBERS} lists the pool's members`);
        expect(failure?.message).toContain("Adopt it by setting `importId");
        // Members carry no tags, so no create mark: the message must not send anyone looking for one.
        expect(failure?.message).not.toContain("pulumi-cims-create-mark");
        expect(failure?.id).toBeUndefined();
        expect(state.ids()).toEqual([]);
        // Its task (started by the POST whose answer was lost) puts it in the pool when it ends.
        let made: { id: string } | undefined;
        for (let i = 0; i < 50 && !made; i++, await sleep(100)) made = (await poolMembers(env)).find((m) => m.address === "10.0.0.20");
        expect(made).toBeDefined();
        // Exactly what the program declares, and not ours by evidence: the next run (a new
        // process, so not the list the failed create took a moment ago) refuses it before its POST, naming it.
        env.emulator.metrics.reset();
        const again = await state.up("web-1", member("10.0.0.20")).then(() => undefined, failureOf);
        expect(again?.message).toContain(`already has member ${String(made?.id)} at 10.0.0.20:8080`);
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );
});
