// `cims:defaultTags` and `cims:ignoreTags` in process, on both faces: the provider called as the
// engine calls it (faults/faces.ts), against an emulator, with the stack's config as each
// command has it. A default tag is in the record and the state once, as the resource's own
// tag of that key would be; adding defaults a stack's records already carry changes nothing;
// removing one removes it from the records that had it from the default, and nothing else.
// A tag under ignoreTags that another system adds survives refresh and update, is no drift,
// and no write sets or removes it; a program or a default naming one is refused at preview.
import { splitTags } from "../../../../api/tags";
import type { Kind } from "../../../../provider/kinds/registry";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { type FaceName, failureOf, type Props } from "../faults/faces";
import { State, stateOn, withEmulatedState } from "../faults/matrix";

const ROW_TIMEOUT_MS = 60_000;
const DEFAULTS = { "cims:defaultTags": JSON.stringify({ costCentre: "cc-42" }) };
const IGNORE = { "cims:ignoreTags": JSON.stringify({ keys: ["owner"], keyPrefixes: ["k8s.io/"] }) };

const KINDS = {
  Subnet: {
    collection: "subnets",
    path: (id: string) => `/cloud/v1/subnets/1/1/${id}`,
    program: (tags: Record<string, string>, n = 0) => ({ name: `app-${n}`, cidr: `10.81.${n}.0/24`, networkId: SEED.networkId, tags }),
  },
  BaremetalImage: {
    collection: "images",
    path: (id: string) => `/cloud/v1/images/1/1/${id}`,
    program: (tags: Record<string, string>, n = 0) => ({ name: `golden-${n}`, volumeId: SEED.volumeId, tags }),
  },
} as const;
type TaggedKind = keyof typeof KINDS;

/** The users' tags of the record `id` as the service holds them. */
function recordTags(env: Emulated, kind: TaggedKind, id: string): Record<string, string> {
  const record = env.emulator.store.list(KINDS[kind].collection).find((r) => r.id === id);
  return splitTags(record?.tags ?? record?.tags_v2).tags;
}

/** The same stack's next command under other `cims:` config: a new provider process, the recorded state kept. */
async function withConfig(face: FaceName, kind: Kind, env: Emulated, state: State, settings: Record<string, string>): Promise<State> {
  const next = await stateOn(face, kind, env, settings);
  for (const [name, recorded] of state.resources) next.resources.set(name, recorded);
  return next;
}

const idOf = (state: State, name: string) => state.resources.get(name)!.id;
const outsOf = (state: State, name: string): Props => state.resources.get(name)!.outs;

describe.each(["dynamic", "native"] as const)("default tags, in process, %s face", (face) => {
  test.each(["Subnet", "BaremetalImage"] as const)(
    "a %s gets the default tags beside its own, in its create, its record and its state, once; its own tag of a default's key wins",
    (kind) =>
      withEmulatedState(
        kind,
        face,
        async (env, state) => {
          await state.up("r", KINDS[kind].program({ team: "web", costCentre: "cc-own" }));
          await state.up("s", KINDS[kind].program({ team: "db" }, 1));
          expect(recordTags(env, kind, idOf(state, "r"))).toEqual({ team: "web", costCentre: "cc-own" });
          expect(recordTags(env, kind, idOf(state, "s"))).toEqual({ team: "db", costCentre: "cc-42" });
          expect(outsOf(state, "s").tags).toEqual({ team: "db", costCentre: "cc-42" });
          expect(state.resources.get("s")!.inputs.tags).toEqual({ team: "db", costCentre: "cc-42" });
          expect(await state.changes("s", KINDS[kind].program({ team: "db" }, 1))).toBe(false);
        },
        DEFAULTS,
      ),
    ROW_TIMEOUT_MS,
  );

  test(
    "defaults a stack's records already carry change nothing; removing one removes it from the records that had it from the default only",
    () =>
      withEmulatedState("Subnet", face, async (env, before) => {
        const program = KINDS.Subnet.program;
        const a = program({ team: "web", costCentre: "cc-42" });
        const b = program({ team: "db", costCentre: "cc-42" }, 1);
        await before.up("a", a);
        await before.up("b", b);
        // The program moves costCentre into the config: a's own tag goes, b keeps its own.
        const withDefaults = await withConfig(face, "Subnet", env, before, DEFAULTS);
        const a2 = { ...a, tags: { team: "web" } };
        expect(await withDefaults.changes("a", a2)).toBe(false);
        expect(await withDefaults.changes("b", b)).toBe(false);
        const made = writes(env);
        await withDefaults.up("a", a2);
        await withDefaults.up("b", b);
        expect(writes(env)).toEqual(made);

        // Another system tags a: not the stack's, so a removal of the default leaves it.
        await api(env, "PATCH", KINDS.Subnet.path(idOf(withDefaults, "a")), { tags: { backup: "daily" } });
        const without = await withConfig(face, "Subnet", env, withDefaults, {});
        expect(await without.shown("a", a2)).toEqual(["tags"]);
        expect(await without.changes("b", b)).toBe(false);
        await without.up("a", a2);
        await without.up("b", b);
        expect(recordTags(env, "Subnet", idOf(without, "a"))).toEqual({ team: "web", backup: "daily" });
        expect(recordTags(env, "Subnet", idOf(without, "b"))).toEqual({ team: "db", costCentre: "cc-42" });
        expect(outsOf(without, "a").tags).toEqual({ team: "web" });
        expect(await without.changes("a", a2)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );

  test("a malformed cims:defaultTags fails the preview naming the key and the rule, before any request", () =>
    withEmulatedState(
      "Subnet",
      face,
      async (env, state) => {
        const failure = await state.up("a", KINDS.Subnet.program({ team: "web" })).then(() => undefined, failureOf);
        expect(failure?.message).toContain(
          'cims:defaultTags: the value of tag "costCentre" must be text, got 42; quote it ({"costCentre":"42"})',
        );
        expect(writes(env)).toEqual([]);
      },
      { "cims:defaultTags": JSON.stringify({ costCentre: 42 }) },
    ));
});

describe.each(["dynamic", "native"] as const)("ignored tags, in process, %s face", (face) => {
  test.each(["Subnet", "BaremetalImage"] as const)(
    "tags another system adds to a %s under ignoreTags are no drift after refresh, and survive an update of the stack's own tags",
    (kind) =>
      withEmulatedState(
        kind,
        face,
        async (env, state) => {
          await state.up("r", KINDS[kind].program({ team: "web" }));
          const id = idOf(state, "r");
          await api(env, "PATCH", KINDS[kind].path(id), { tags: { owner: "ops", "k8s.io/cluster": "east" } });
          await state.refresh("r");
          expect(outsOf(state, "r").tags).toEqual({ team: "web" });
          expect(await state.changes("r", KINDS[kind].program({ team: "web" }))).toBe(false);
          await state.up("r", KINDS[kind].program({ team: "apps" }));
          expect(recordTags(env, kind, id)).toEqual({ team: "apps", owner: "ops", "k8s.io/cluster": "east" });
          await state.refresh("r");
          expect(await state.changes("r", KINDS[kind].program({ team: "apps" }))).toBe(false);
        },
        IGNORE,
      ),
    ROW_TIMEOUT_MS,
  );

  test(
    "a tag the stack once wrote and now leaves to others is neither removed nor set back, even from a state that holds it",
    () =>
      withEmulatedState("Subnet", face, async (env, before) => {
        await before.up("a", KINDS.Subnet.program({ team: "web", owner: "app" }));
        const id = idOf(before, "a");
        await api(env, "PATCH", KINDS.Subnet.path(id), { tags: { owner: "ops" } });
        const after = await withConfig(face, "Subnet", env, before, IGNORE);
        // The state still holds owner: "app"; the program no longer names it.
        expect(await after.changes("a", KINDS.Subnet.program({ team: "web" }))).toBe(false);
        await after.up("a", KINDS.Subnet.program({ team: "apps" }));
        expect(recordTags(env, "Subnet", id)).toEqual({ team: "apps", owner: "ops" });
      }),
    ROW_TIMEOUT_MS,
  );

  test("a program's tag or a default tag under ignoreTags is refused at preview, naming it and what to do", () =>
    withEmulatedState(
      "Subnet",
      face,
      async (env, state) => {
        const own = await state.up("a", KINDS.Subnet.program({ "k8s.io/role": "x" })).then(() => undefined, failureOf);
        expect(own?.message).toContain('tags: tag "k8s.io/role" is one others own');
        expect(own?.message).toContain("remove it from tags, or take it out of ignoreTags for this stack to manage it");
        const both = await withConfig(face, "Subnet", env, state, { ...IGNORE, "cims:defaultTags": JSON.stringify({ owner: "me" }) });
        const fromDefault = await both.up("a", KINDS.Subnet.program({ team: "web" })).then(() => undefined, failureOf);
        expect(fromDefault?.message).toContain('default tag "owner" (`cims:defaultTags`) is under ignoreTags too');
        expect(writes(env)).toEqual([]);
      },
      IGNORE,
    ));

  test("an empty key prefix is refused, naming the key and why", () =>
    withEmulatedState(
      "Subnet",
      face,
      async (env, state) => {
        const failure = await state.up("a", KINDS.Subnet.program({ team: "web" })).then(() => undefined, failureOf);
        expect(failure?.message).toContain("cims:ignoreTags.keyPrefixes holds an empty prefix, which every key starts with");
        expect(writes(env)).toEqual([]);
      },
      { "cims:ignoreTags": JSON.stringify({ keyPrefixes: [""] }) },
    ));
});
