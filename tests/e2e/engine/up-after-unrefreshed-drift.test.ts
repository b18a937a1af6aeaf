// An update writes what the program changed since the state (the diff the preview showed)
// and nothing else; drift nobody refreshed stays in the service and out of the state, so the
// next preview is clean; `pulumi refresh` shows it in the diff, and the `up` after it sets it
// back. History: the lifecycle model (tests/model, seed 4) found an update that recorded a
// drifted name it had not written, so the next preview showed a change the program had not
// made; the first fix set every drifted field back at each update, which wrote fields no
// preview had shown (a tag added outside Pulumi was deleted by a rename, `ignoreChanges`
// fields were overwritten). The pool still sets drift back (its last test).
import { api, type CimsTestEnv, type Face, SEED, useStacks } from "../../support/cims";
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

/** Waits for the tasks a change made outside Pulumi started. */
async function settle(e: CimsTestEnv, tasks: string[]): Promise<void> {
  for (const task of tasks)
    for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 50)))
      s = (await api(e, "GET", `/cloud/v1/tasks/${task}`)).body.state;
}

test(
  "a pool update after unrefreshed drift of its name and members writes only the changed setting: the drift stays, and so does another's member",
  async () => {
    const env = await stacks.program("pool", { poolId: SEED.poolId }, { taskDurationMs: 50 });
    await env.stack.up();
    const poolPath = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
    const drift = await api(env, "PATCH", poolPath, {
      name: "renamed-by-hand",
      members: [
        { address: "10.0.0.10", protocol_port: 8080 },
        { address: "10.0.0.99", protocol_port: 8080 },
      ],
    });
    expect(drift.status).toBe(200);
    await settle(env, drift.body.tasks);

    await env.stack.setConfig("algorithm", "LEAST_CONNECTIONS");
    await env.stack.up();

    const pool = (await api(env, "GET", poolPath)).body;
    const preview = await env.stack.preview(["--expect-no-changes", "--diff"], { allowFailure: true });
    expect({
      name: pool.name,
      lbAlgorithm: pool.lb_algorithm,
      members: (pool.members as Array<{ address: string }>).map((m) => m.address),
      preview: preview.code === 0 ? "no changes" : preview.stdout,
    }).toEqual({ name: "renamed-by-hand", lbAlgorithm: "LEAST_CONNECTIONS", members: ["10.0.0.10", "10.0.0.99"], preview: "no changes" });
  },
  E2E_TIMEOUT_MS,
);

test(
  "a policy renamed by the program keeps a status changed outside Pulumi; after a refresh up sets it back",
  async () => {
    const env = await stacks.program("policy", { policyId: SEED.policyId, name: "nightly" });
    await env.stack.up();
    const policyPath = `/cloud/v1/lifecycle_policy/1/1/${SEED.policyId}`;
    expect((await api(env, "PATCH", policyPath, { status: "active" })).status).toBe(200);
    const policy = async () => {
      const { name, status } = (await api(env, "GET", policyPath)).body as { name: string; status: string };
      return { name, status };
    };

    await env.stack.setConfig("name", "weekly");
    await env.stack.up();
    const afterRename = await policy();
    const clean = await env.stack.preview(["--expect-no-changes", ...DIFF], { allowFailure: true });
    await env.stack.refresh();
    const drift = (await env.stack.preview(DIFF)).stdout;
    await env.stack.up();
    expect({
      afterRename,
      clean: clean.code === 0 ? "no changes" : clean.stdout,
      drift: /~ status\s*: "active" => "paused"/.test(drift),
      setBack: await policy(),
    }).toEqual({
      afterRename: { name: "weekly", status: "active" },
      clean: "no changes",
      drift: true,
      setBack: { name: "weekly", status: "paused" },
    });
  },
  E2E_TIMEOUT_MS,
);
