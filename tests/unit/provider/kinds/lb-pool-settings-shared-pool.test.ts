// LbPoolSettings on a pool another stack adds members to, in process on both faces (each
// stack's provider as the engine calls it, against one emulator): stack A declares the seeded
// member, stack B adds one with an LbPoolMember and adopts another with importId (which its
// destroy removes only as its program says deleteAdopted). A's
// unrelated update (lbAlgorithm) keeps B's members and shows nothing of members; a weight
// change is one member PATCH in place (same id); an update writes only what its diff showed (a
// drifted lbAlgorithm is set back only after a refresh); exclusive ownership names in its
// preview each member it removes and removes exactly those; a destroy while another stack's
// member create holds the pool lock waits it out and leaves that member. Exclusive ownership
// is refused at preview while the pool holds a member an LbPoolMember made. The same sharing
// under the real engine: tests/e2e/kinds/pool-shared.test.ts and the lifecycle model's shared
// pool (tests/e2e/engine/lifecycle-model.test.ts); `pulumi import` of a pool then destroy:
// tests/e2e/kinds/pool-members.test.ts.
import { setLogSink } from "../../../../provider/methods/context";
import { api, SEED, writes } from "../../../support/cims";
import { addMemberOutside, type Emulated, MEMBERS, taskEnds } from "../../../support/faults";
import { stateOn, withEmulatedState } from "../faults/matrix";

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const MEMBER_ROUTE = "/cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members";
const POOL_ROUTE = "/cloud/v1/lbpools/:project_id/:region_id/:pool_id";

/** Stack A's program: the seeded pool's settings and its seeded member, adopted on purpose. */
const programA = (over: { name?: string; algorithm?: string; ownership?: string; weight?: number } = {}) => ({
  poolId: SEED.poolId,
  name: over.name ?? "team-a",
  lbAlgorithm: over.algorithm ?? "ROUND_ROBIN",
  ...(over.ownership ? { membersOwnership: over.ownership } : {}),
  members: [{ address: "10.0.0.10", protocolPort: 8080, weight: over.weight ?? 1 }],
  adoptMembers: [SEED.keptMemberId],
});
const made = { poolId: SEED.poolId, address: "10.0.0.55", protocolPort: 8080 };
const adopted = (importId: string) => ({ poolId: SEED.poolId, address: "10.0.0.56", protocolPort: 8080, importId });

type PoolMember = { id: string; address: string; weight: number };
const members = async (env: Emulated): Promise<PoolMember[]> => (await api(env, "GET", POOL_PATH)).body.members;
const addresses = async (env: Emulated) => (await members(env)).map((m) => m.address).sort();

describe.each(["dynamic", "native"] as const)("a pool shared by two stacks, %s face", (face) => {
  test(
    "A's unrelated update keeps B's members (made and adopted); a weight is one PATCH in place; only diffed fields are written; exclusive removes exactly what its preview names; destroy under another stack's pool lock removes the stack's member only",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, a) => {
        await a.up("web", programA());
        const adoptedId = await addMemberOutside(env, "10.0.0.56");
        const b = await stateOn(face, "LbPoolMember", env);
        const said: string[] = [];
        setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
        await b.up("b-made", made);
        await b.up("b-adopted", adopted(adoptedId));
        expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.55", "10.0.0.56"]);

        // A changes only lbAlgorithm: the preview shows only that, and B's members stay.
        const leastConnections = programA({ algorithm: "LEAST_CONNECTIONS" });
        expect(await a.shown("web", leastConnections)).toEqual(["lbAlgorithm"]);
        env.emulator.metrics.reset();
        await a.up("web", leastConnections);
        expect(writes(env)).toEqual([`PATCH ${POOL_ROUTE} 200 x1`]);
        expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.55", "10.0.0.56"]);
        expect(await b.changes("b-made", made)).toBe(false);
        expect(await b.changes("b-adopted", adopted(adoptedId))).toBe(false);

        // In one up, after lbAlgorithm drifted outside Pulumi: a weight is one PATCH of that
        // member, in place (its id unchanged), and the rename writes the name only (the drift
        // stays, out of the state: the next preview is clean). After a refresh the drift shows,
        // and up sets it back in the open.
        await taskEnds(env, (await api(env, "PATCH", POOL_PATH, { lb_algorithm: "SOURCE_IP" })).body.tasks[0]);
        const renamed = programA({ algorithm: "LEAST_CONNECTIONS", weight: 4, name: "team-a-2" });
        env.emulator.metrics.reset();
        await a.up("web", renamed);
        expect(writes(env).sort()).toEqual([`PATCH ${MEMBER_ROUTE}/:member_id 200 x1`, `PATCH ${POOL_ROUTE} 200 x1`].sort());
        expect((await members(env)).find((m) => m.address === "10.0.0.10")).toMatchObject({ id: SEED.keptMemberId, weight: 4 });
        expect((await api(env, "GET", POOL_PATH)).body).toMatchObject({ name: "team-a-2", lb_algorithm: "SOURCE_IP" });
        expect(await a.changes("web", renamed)).toBe(false);
        await a.refresh("web");
        expect(await a.shown("web", renamed)).toEqual(["lbAlgorithm"]);
        await a.up("web", renamed);
        expect((await api(env, "GET", POOL_PATH)).body.lb_algorithm).toBe("LEAST_CONNECTIONS");

        // B leaves; another team adds two members with the pool's whole-list update. Exclusive:
        // the preview names every member it removes, and up removes exactly those.
        await b.destroy("b-made");
        // The member it adopted goes too only as its program says deleteAdopted (an up that writes nothing).
        env.emulator.metrics.reset();
        await b.up("b-adopted", { ...adopted(adoptedId), deleteAdopted: true });
        expect(writes(env)).toEqual([]);
        await b.destroy("b-adopted");
        expect(await addresses(env)).toEqual(["10.0.0.10"]);
        const list = ["10.0.0.10", "10.0.0.77", "10.0.0.78"].map((address) => ({ address, protocol_port: 8080 }));
        await taskEnds(env, (await api(env, "PATCH", POOL_PATH, { members: list })).body.tasks[0]);
        const idOf = async (address: string) => (await members(env)).find((m) => m.address === address)?.id;
        const [other, third] = [await idOf("10.0.0.77"), await idOf("10.0.0.78")];
        const exclusive = { ...renamed, membersOwnership: "exclusive" };
        said.splice(0);
        expect(await a.changes("web", exclusive)).toBe(true);
        expect(said).toContain(
          `warning: cims: LbPoolSettings of pool ${SEED.poolId}: the update removes member(s) 10.0.0.77:8080 (id ${other}), 10.0.0.78:8080 (id ${third})`,
        );
        env.emulator.metrics.reset();
        await a.up("web", exclusive);
        expect(writes(env)).toEqual([`DELETE ${MEMBER_ROUTE}/:member_id 200 x2`]);
        expect((await members(env)).map((m) => m.id)).toEqual([SEED.keptMemberId]);
        expect(await a.changes("web", exclusive)).toBe(false);

        // A drops the seeded member from adoptMembers, still listing it: the program now says it
        // is the stack's like a member it made (no write), so destroy removes it.
        const { adoptMembers: _adopted, ...owning } = exclusive;
        env.emulator.metrics.reset();
        await a.up("web", owning);
        expect(writes(env)).toEqual([]);

        // Destroy while another stack's member create holds the pool (its task, 8 s): the destroy
        // meets the lock (409), waits it out, and removes the stack's member only, by id; it
        // never writes the pool's list, and that member survives.
        await api(env, "PUT", "/__emulator/task-duration", { ms: 8000 });
        const creating = (await api(env, "POST", MEMBERS, { address: "10.0.0.88", protocol_port: 8080 })).body.tasks[0];
        env.emulator.metrics.reset();
        await a.destroy("web");
        await taskEnds(env, creating);
        expect((await members(env)).map((m) => m.address)).toEqual(["10.0.0.88"]);
        expect(env.emulator.metrics.snapshot().requests[`DELETE ${MEMBER_ROUTE}/:member_id 409`]).toBeGreaterThan(0);
        expect(writes(env).filter((w) => w.startsWith("PATCH"))).toEqual([]);
      }),
    120_000,
  );

  test(
    "exclusive ownership refuses at preview a pool holding a member an LbPoolMember made, naming it and its task; declared members or none pass; nothing written",
    () =>
      withEmulatedState("LbPoolMember", face, async (env, members) => {
        await members.up("web-1", made);
        const [id] = members.ids();
        const pool = await stateOn(face, "LbPoolSettings", env);
        env.emulator.metrics.reset();
        expect(await pool.changes("pool", { poolId: SEED.poolId, members: [] })).toBe(true);
        const refused = await pool.changes("pool", { poolId: SEED.poolId, membersOwnership: "exclusive", members: [] }).then(
          () => "passed",
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        );
        expect(refused).toMatch(
          new RegExp(`members: pool ${SEED.poolId} holds member ${id} \\(10\\.0\\.0\\.55:8080\\), made alone by task [0-9a-f-]{36}`),
        );
        expect(await pool.changes("pool", { poolId: SEED.poolId, name: "web-pool" })).toBe(true);
        expect(writes(env)).toEqual([]);
        expect(pool.ids()).toEqual([]);
      }),
    60_000,
  );
});
