// A pool member is an LbPoolSettings' own only by evidence: the id its own member create's task
// reported, or an id its program adopts on purpose (`adoptMembers`). In process on both faces,
// each stack a State of its own against one emulator: a second stack listing the first's
// address:port is refused at preview and at up, naming the member, its id and the task that
// made it, with nothing written; adopting it on purpose is said at preview, writes nothing, and
// its destroy leaves the member; `pulumi import` of the pool (the plugin's import read) never
// takes a member some stack's member create made, and records what it writes as adopted; a
// member on a subnet that does not exist, and an adoption naming no member, fail the preview
// naming the property.
import { randomUUID } from "node:crypto";
import { setLogSink } from "../../../../provider/methods/context";
import { importRead } from "../../../../provider/plugin/import";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { stateOn, type State, withEmulatedState } from "../faults/matrix";

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const member = { address: "10.0.0.30", protocolPort: 8080 };
const program = (over: Record<string, unknown> = {}) => ({ poolId: SEED.poolId, members: [member], ...over });

const addresses = async (env: Emulated): Promise<string[]> =>
  ((await api(env, "GET", POOL_PATH)).body.members as Array<{ address: string }>).map((m) => m.address).sort();
const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "passed",
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );
const ownedBy = (state: State, name: string): Record<string, string> =>
  state.resources.get(name)?.outs.declaredMemberIds as Record<string, string>;

describe.each(["dynamic", "native"] as const)("LbPoolSettings members by evidence, %s face", (face) => {
  test(
    "a second stack listing the first's address:port is refused at preview and at up, naming the member, its id and its task; adopted on purpose it is said, nothing is written, and its destroy leaves it",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, a) => {
        await a.up("web", program({ name: "team-a" }));
        const id = ownedBy(a, "web")["10.0.0.30:8080"];
        expect(id).toMatch(/^[0-9a-f-]{36}$/);

        const b = await stateOn(face, "LbPoolSettings", env);
        env.emulator.metrics.reset();
        const refused = new RegExp(
          `members\\[0\\]: pool ${SEED.poolId} already holds member 10\\.0\\.0\\.30:8080 \\(id ${id}, made by task [0-9a-f-]{36} ` +
            `\\(create_lbmember.*add "${id}" to adoptMembers`,
        );
        expect(await failure(b.changes("web", program()))).toMatch(refused);
        expect(await failure(b.up("web", program()))).toMatch(refused);
        // An update that starts listing it is refused the same way.
        await b.up("web", { poolId: SEED.poolId, name: "team-b" });
        expect(await failure(b.changes("web", program({ name: "team-b" })))).toMatch(refused);
        expect(writes(env).filter((w) => !w.startsWith("PATCH /cloud/v1/lbpools"))).toEqual([]);
        expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.30"]);

        // Adopted on purpose: the preview says so, the up writes nothing, destroy leaves it.
        const said: string[] = [];
        setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
        const adopting = program({ name: "team-b", adoptMembers: [id] });
        expect(await b.changes("web", adopting)).toBe(true);
        expect(said).toContain(
          `warning: cims: LbPoolSettings of pool ${SEED.poolId}: the update adopts member(s) 10.0.0.30:8080 (id ${id}) as they are: ` +
            "the stack manages them from now on, and destroy leaves them in the pool",
        );
        env.emulator.metrics.reset();
        await b.up("web", adopting);
        expect(writes(env)).toEqual([]);
        expect(ownedBy(b, "web")).toEqual({ "10.0.0.30:8080": id });
        expect(await b.changes("web", adopting)).toBe(false);
        await b.destroy("web");
        expect(writes(env)).toEqual([]);
        expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.30"]);

        // The stack that made it removes it.
        await a.destroy("web");
        expect(await addresses(env)).toEqual(["10.0.0.10"]);
      }),
    60_000,
  );

  test(
    "a member on a subnet that does not exist, and an adoption naming no member, fail the preview naming the property; nothing written",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, state) => {
        const subnetId = randomUUID();
        env.emulator.metrics.reset();
        expect(await failure(state.changes("web", program({ members: [{ ...member, subnetId }] })))).toMatch(
          `members[0].subnetId: no subnet ${subnetId} in project 1, region 1, so the service would refuse member 10.0.0.30:8080`,
        );
        const stray = randomUUID();
        expect(await failure(state.changes("web", program({ adoptMembers: [stray] })))).toMatch(
          `adoptMembers[0]: pool ${SEED.poolId} holds no member ${stray}`,
        );
        expect(await failure(state.changes("web", program({ adoptMembers: [SEED.keptMemberId] })))).toMatch(
          `adoptMembers[0]: member ${SEED.keptMemberId} of pool ${SEED.poolId} is at 10.0.0.10:8080, which members does not list`,
        );
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
      }),
    60_000,
  );

  test(
    "an import of a pool leaves out the member another stack's member create made, writes the others as adopted, and its destroy removes none",
    () =>
      withEmulatedState("LbPoolMember", face, async (env, others) => {
        await others.up("theirs", { poolId: SEED.poolId, address: "10.0.0.55", protocolPort: 8080 });
        const imported = await importRead("LbPoolSettings", SEED.poolId);
        expect(imported.inputs.members).toEqual([expect.objectContaining({ address: "10.0.0.10", protocolPort: 8080 })]);
        expect(imported.inputs.adoptMembers).toEqual([SEED.keptMemberId]);
        expect(imported.properties.declaredMemberIds).toEqual({ "10.0.0.10:8080": SEED.keptMemberId });

        const pool = await stateOn(face, "LbPoolSettings", env);
        pool.resources.set("web", { id: imported.id, outs: imported.properties, inputs: imported.inputs });
        expect(await pool.changes("web", imported.inputs)).toBe(false);
        env.emulator.metrics.reset();
        await pool.destroy("web");
        expect(writes(env)).toEqual([]);
        expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.55"]);
      }),
    60_000,
  );
});
