// An LbPoolSettings state written before pools had a scope holds no projectId or regionId. In
// process on both faces: the program's scope is then a new value, so the diff replaces, the old
// resource deleted first (its members leave the pool before the create adds them back); the
// preview speaks of a create (`the create changes ...`), yet the members the old inputs listed
// are no news (the same pool), so the stack's own member is not refused as another's. A state
// naming another project is another pool: the same member is refused there.
import { setLogSink } from "../../../../provider/methods/context";
import { SEED, writes } from "../../../support/cims";
import { providerOn } from "../faults/faces";
import { configFor, type State, withEmulatedState } from "../faults/matrix";

const A = { address: "10.0.0.30", protocolPort: 8080 };
const program = (name: string, ...members: Array<Record<string, unknown>>) => ({ poolId: SEED.poolId, name, members });

/** The recorded resource as a state of another version holds it: its scope as `scope` says (undefined: none). */
function rescope(state: State, name: string, scope: { projectId?: number; regionId?: number }): void {
  const recorded = state.resources.get(name)!;
  const as = (props: Record<string, unknown>) => {
    const { projectId: _p, regionId: _r, ...rest } = props;
    return { ...rest, ...scope };
  };
  state.resources.set(name, { ...recorded, inputs: as(recorded.inputs), outs: as(recorded.outs) });
}

const failure = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => "passed",
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );

describe.each(["dynamic", "native"] as const)("an LbPoolSettings state from before pools had a scope, %s face", (face) => {
  test(
    "is the same pool: its listed member is no news, while the preview warns as of the create its delete-first replacement is",
    () =>
      withEmulatedState("LbPoolSettings", face, async (env, state) => {
        await state.up("web", program("p1", A));
        rescope(state, "web", {});
        const said: string[] = [];
        setLogSink((line, severity) => void said.push(`${severity}: ${line}`));
        env.emulator.metrics.reset();

        const next = program("p2", A);
        expect(await state.changes("web", next)).toBe(true);
        const recorded = state.resources.get("web")!;
        const provider = await providerOn(face, "LbPoolSettings", configFor(env));
        const checked = await provider.check(recorded.inputs, next);
        expect(await provider.deleteFirst(recorded.id, recorded.outs, checked)).toBe(true);
        expect(said).toContain(`warning: cims: LbPoolSettings of pool ${SEED.poolId}: the create changes name: "p1" -> "p2"`);
        expect(writes(env)).toEqual([]);
      }),
    60_000,
  );

  test(
    "a state naming another project is another pool: the member the pool holds at the listed address is refused",
    () =>
      withEmulatedState("LbPoolSettings", face, async (_env, state) => {
        await state.up("web", program("p1", A));
        rescope(state, "web", { projectId: 2, regionId: 1 });
        expect(await failure(state.changes("web", program("p2", A)))).toMatch(
          `members[0]: pool ${SEED.poolId} already holds member 10.0.0.30:8080`,
        );
      }),
    60_000,
  );
});
