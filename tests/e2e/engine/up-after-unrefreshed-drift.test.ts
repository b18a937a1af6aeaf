// An update writes what the program changed since the state (the diff the preview showed)
// and nothing else; drift nobody refreshed stays in the service and out of the state, so the
// next preview is clean; `pulumi refresh` shows it in the diff, and the `up` after it sets it
// back. History: the lifecycle model (tests/model, seed 4) found an update that recorded a
// drifted name it had not written, so the next preview showed a change the program had not
// made; the first fix set every drifted field back at each update, which wrote fields no
// preview had shown (a tag added outside Pulumi was deleted by a rename, `ignoreChanges`
// fields were overwritten). Here the engine's side, a Subnet on both faces; what each kind's
// update writes after unrefreshed drift (Subnet, LbPoolSettings, SnapshotPolicyState,
// QuotaThreshold) runs in process: tests/unit/provider/methods/update-writes-diff.test.ts.
import { api, type Face, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";

const stacks = useStacks();

/** What a reader of `preview --diff` sees, without colour. */
const DIFF = ["--diff", "--color", "never"];

test.each<Face>(["dynamic", "native"])(
  "%s face: a rename keeps a tag added outside Pulumi; after a refresh the diff shows it removed and up removes it",
  async (face) => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId }, { taskDurationMs: 50, face });
    await env.stack.up();
    const [subnet] = env.emulator.store.list("subnets");
    const record = () => env.emulator.store.get("subnets", subnet.id)!;
    const userTags = () =>
      Object.fromEntries(
        (record().tags as Array<{ key: string; value: string; read_only: boolean }>)
          .filter((t) => !t.read_only)
          .map((t) => [t.key, t.value]),
      );
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${String(subnet.id)}`, { tags: { "cost-center": "cc-1" } })).status).toBe(200);

    await env.stack.setConfig("name", "renamed");
    const rename = (await env.stack.preview(DIFF)).stdout;
    await env.stack.up();
    const afterRename = { name: record().name, tags: userTags() };
    const clean = await env.stack.preview(["--expect-no-changes", ...DIFF], { allowFailure: true });

    await env.stack.refresh();
    const drift = (await env.stack.preview(DIFF)).stdout;
    await env.stack.up();
    const after = await env.stack.preview(["--expect-no-changes", ...DIFF], { allowFailure: true });
    expect({
      rename: { name: /~ name\s*: "e2e-subnet" => "renamed"/.test(rename), tags: rename.includes("cost-center") },
      afterRename,
      clean: clean.code === 0 ? "no changes" : clean.stdout,
      drift: /- "?cost-center"?\s*: "cc-1"/.test(drift),
      setBack: userTags(),
      after: after.code === 0 ? "no changes" : after.stdout,
    }).toEqual({
      rename: { name: true, tags: false },
      afterRename: { name: "renamed", tags: { owner: "e2e", "cost-center": "cc-1" } },
      clean: "no changes",
      drift: true,
      setBack: { owner: "e2e" },
      after: "no changes",
    });
  },
  E2E_TIMEOUT_MS,
);
