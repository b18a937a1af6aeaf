// An up writes what the program changed since the state (the diff the preview showed) and
// nothing else, as the engine calls the provider on both faces (each command a State call,
// against an emulator): a tag added outside Pulumi survives a rename, which the preview shows
// alone; the state keeps what it knew, so the next preview is clean; after a refresh the
// preview shows the tag's removal, and the up after it removes it. History: the lifecycle
// model (tests/model, seed 4) found an update that recorded a drifted name it had not written,
// so the next preview showed a change the program had not made; the first fix set every
// drifted field back at each update, which wrote fields no preview had shown (a tag added
// outside Pulumi was deleted by a rename, `ignoreChanges` fields were overwritten). What each
// kind's update sends: update-writes-diff.test.ts; the same sequence under the real engine,
// with `ignoreChanges`, in the lifecycle model (tests/e2e/engine/lifecycle-model.test.ts).
import { api, SEED } from "../../../support/cims";
import { withEmulatedState } from "../faults/matrix";

const program = { name: "e2e-subnet", cidr: "10.30.0.0/24", networkId: SEED.networkId, tags: { owner: "e2e" }, timeouts: { create: 600 } };
const renamed = { ...program, name: "renamed" };

describe.each(["dynamic", "native"] as const)("a Subnet updated after drift nobody refreshed, %s face", (face) => {
  test(
    "a rename keeps a tag added outside Pulumi; after a refresh the diff shows it removed and up removes it",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await state.up("subnet", program);
        const [id] = state.ids();
        const record = () => env.emulator.store.get("subnets", id)!;
        const userTags = () =>
          Object.fromEntries(
            (record().tags as Array<{ key: string; value: string; read_only: boolean }>)
              .filter((t) => !t.read_only)
              .map((t) => [t.key, t.value]),
          );
        expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags: { "cost-center": "cc-1" } })).status).toBe(200);

        const rename = await state.shown("subnet", renamed);
        await state.up("subnet", renamed);
        const afterRename = { name: record().name, tags: userTags() };
        const clean = await state.changes("subnet", renamed);

        await state.refresh("subnet");
        const drift = await state.shown("subnet", renamed);
        await state.up("subnet", renamed);
        expect({ rename, afterRename, clean, drift, setBack: userTags(), after: await state.changes("subnet", renamed) }).toEqual({
          rename: ["name"],
          afterRename: { name: "renamed", tags: { owner: "e2e", "cost-center": "cc-1" } },
          clean: false,
          drift: ["tags"],
          setBack: { owner: "e2e" },
          after: false,
        });
      }),
    60_000,
  );
});
