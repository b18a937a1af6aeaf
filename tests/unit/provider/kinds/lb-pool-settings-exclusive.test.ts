// LbPoolSettings with `membersOwnership: "exclusive"`, in process on both faces against one
// emulator. The stack adds its own members through the same member create (`create_lbmember`)
// an LbPoolMember uses; its state records their ids, so a later change of its members is no
// refusal of its own members, at preview or at up, while a member another stack's LbPoolMember
// made in the pool is still refused, naming it and its task, with nothing written.
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { stateOn, withEmulatedState } from "../faults/matrix";

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const A = { address: "10.0.0.30", protocolPort: 8080 };
const B = { address: "10.0.0.31", protocolPort: 8080 };
const exclusive = (...members: Array<Record<string, unknown>>) => ({ poolId: SEED.poolId, membersOwnership: "exclusive", members });

type PoolMember = { id: string; address: string; weight: number };
const members = async (env: Emulated): Promise<PoolMember[]> =>
  ((await api(env, "GET", POOL_PATH)).body.members as PoolMember[]).sort((x, y) => x.address.localeCompare(y.address));
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "passed",
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );

describe.each(["dynamic", "native"] as const)("LbPoolSettings exclusive ownership, %s face", (face) => {
  test(
    "the stack's own members (made by its member creates) are no refusal at its next member change; a member another stack's LbPoolMember made still is, at preview and up, nothing written",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, pool) => {
        await pool.up("web", exclusive(A));
        const [a] = await members(env);
        expect(a).toMatchObject({ address: "10.0.0.30" });

        // A new weight for A, and B added: the preview passes and the up does what it said.
        const next = exclusive({ ...A, weight: 3 }, B);
        expect(await pool.changes("web", next)).toBe(true);
        await pool.up("web", next);
        expect((await members(env)).map((m) => [m.address, m.weight])).toEqual([
          ["10.0.0.30", 3],
          ["10.0.0.31", 1],
        ]);
        expect((await members(env))[0].id).toBe(a.id);
        expect(await pool.changes("web", next)).toBe(false);
        // Both of its members were made by member creates: B's weight changes too.
        const again = exclusive({ ...A, weight: 3 }, { ...B, weight: 5 });
        await pool.up("web", again);
        expect((await members(env)).map((m) => m.weight)).toEqual([3, 5]);

        // Another stack's LbPoolMember in the same pool: the next member change is refused.
        const others = await stateOn(face, "LbPoolMember", env);
        await others.up("theirs", { poolId: SEED.poolId, address: "10.0.0.55", protocolPort: 8080 });
        const [theirs] = others.ids();
        const refused = new RegExp(
          `members: pool ${SEED.poolId} holds member ${theirs} \\(10\\.0\\.0\\.55:8080\\), made alone by task [0-9a-f-]{36}`,
        );
        env.emulator.metrics.reset();
        const dropB = exclusive({ ...A, weight: 3 });
        expect(await failure(pool.changes("web", dropB))).toMatch(refused);
        expect(await failure(pool.up("web", dropB))).toMatch(refused);
        expect(writes(env)).toEqual([]);
        expect((await members(env)).map((m) => m.address)).toEqual(["10.0.0.30", "10.0.0.31", "10.0.0.55"]);
      }),
    60_000,
  );

  test(
    "turning exclusive, the members the stack made are no refusal; one it adopted from another stack's LbPoolMember still is, the next time it syncs its members",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, pool) => {
        const declared = {
          poolId: SEED.poolId,
          members: [A, { address: "10.0.0.10", protocolPort: 8080 }],
          adoptMembers: [SEED.keptMemberId],
        };
        await pool.up("web", declared);

        // The seed's member (no member create made it) and A (the stack's): exclusive passes.
        const owning = { ...declared, membersOwnership: "exclusive" };
        expect(await pool.changes("web", owning)).toBe(true);
        await pool.up("web", owning);
        expect((await members(env)).map((m) => m.address)).toEqual(["10.0.0.10", "10.0.0.30"]);

        // Another stack's LbPoolMember, adopted on purpose by id while declared: still another's.
        const others = await stateOn(face, "LbPoolMember", env);
        await others.up("theirs", { poolId: SEED.poolId, address: "10.0.0.55", protocolPort: 8080 });
        const [id] = others.ids();
        const adopting = { ...declared, members: [...declared.members, { address: "10.0.0.55", protocolPort: 8080 }] };
        await pool.up("web", { ...adopting, adoptMembers: [SEED.keptMemberId, id] });
        env.emulator.metrics.reset();
        const exclusiveAgain = { ...adopting, adoptMembers: [SEED.keptMemberId, id], membersOwnership: "exclusive" };
        expect(await failure(pool.changes("web", exclusiveAgain))).toMatch(`holds member ${id} (10.0.0.55:8080), made alone by task`);
        expect(writes(env)).toEqual([]);
      }),
    60_000,
  );
});
