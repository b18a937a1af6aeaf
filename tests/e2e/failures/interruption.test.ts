// Interrupting `pulumi up` while it waits on a subnet's task.
// SIGINT: Pulumi cancels gracefully and lets the in-flight create finish, so the state
// records the subnet; `pulumi up` afterwards has nothing to create.
// SIGKILL: nothing is written after the kill, so the state holds a pending create while the
// service finishes making the subnet: an unavoidable window as long as the create (POST,
// task, read-back), because the API has no idempotency key. The documented recovery:
// `pulumi cancel` (the killed run still holds the stack's lock), `pulumi refresh
// --clear-pending-creates`, delete the subnet the stack never recorded (its id is in the
// task the progress line named), `pulumi up`. (`--import-pending-creates` did not adopt it
// with Pulumi v3.248.0.)
import { spawn } from "node:child_process";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, PULUMI } from "../../support/harness";

const stacks = useStacks();

/**
 * Starts `pulumi up` and resolves once the subnet's task runs in the emulator, with the task
 * id. (Watching the emulator, not the CLI's output: on a loaded machine the progress line can
 * reach the output late, and the signal would then find the run already over.)
 */
async function upUntilTaskRuns(e: CimsTestEnv) {
  await e.stack.programRuns();
  const child = spawn(PULUMI, ["up", "--yes", "--skip-preview", "--stack", e.stack.name, "--non-interactive"], {
    cwd: e.stack.projectDir,
    env: e.stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => {
      running = false;
      resolve(code);
    }),
  );
  const deadline = Date.now() + 120_000;
  let taskId: string | undefined;
  while (!taskId) {
    if (Date.now() > deadline || !running) throw new Error(`the subnet task never started while up ran:\n${output}`);
    taskId = Object.values(e.emulator.store.tasks).find(
      (t) => t.task_type === "create_subnet" && (t.state === "NEW" || t.state === "RUNNING"),
    )?.id;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, exited, taskId, output: () => output };
}

/** The stack's lock files: a run that ended releases its lock. */
async function locks(e: CimsTestEnv): Promise<string[]> {
  const entries = await fs
    .readdir(path.join(e.stack.root, "state/.pulumi/locks"), { recursive: true, withFileTypes: true })
    .catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

test(
  "SIGINT while waiting on a task: the create completes and is recorded; up converges with one subnet",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId }, { taskDurationMs: 6000 });
    const run = await upUntilTaskRuns(env);
    process.kill(run.child.pid!, "SIGINT");
    await run.exited;
    // A graceful cancel finishes the in-flight create and releases the stack's lock.
    expect({ locks: await locks(env), output: run.output() }).toMatchObject({ locks: [] }); // the output shows on failure
    await env.stack.refresh();
    await env.stack.up();
    expect(env.emulator.store.list("subnets")).toHaveLength(1);
    const inState = (await env.stack.exportState()).deployment.resources?.filter((r) => r.type.endsWith("cims:Subnet")).map((r) => r.id);
    expect(inState).toEqual(env.emulator.store.list("subnets").map((s) => s.id));
  },
  E2E_TIMEOUT_MS,
);

test(
  "SIGKILL while waiting on a task: cancel, refresh --clear-pending-creates, delete the unrecorded subnet; up converges with one subnet",
  async () => {
    const env = await stacks.program("subnet", { networkId: SEED.networkId }, { taskDurationMs: 4000 });
    const run = await upUntilTaskRuns(env);
    process.kill(-run.child.pid!, "SIGKILL");
    await run.exited;

    // The service still finishes the subnet; the stack does not know its id.
    const task = await (async () => {
      for (;;) {
        const t = (await api(env, "GET", `/cloud/v1/tasks/${run.taskId}`)).body;
        if (t.state === "FINISHED") return t;
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    const subnetId = task.created_resources.subnets[0] as string;
    const state = await env.stack.exportState();
    expect(JSON.stringify(state)).toContain("pending_operations");

    // Recovery: release the killed run's lock, drop the pending create, delete the subnet the
    // stack never recorded (its id is in the task the progress line named), then up.
    await env.stack.run(["cancel", "--yes", "--stack", env.stack.name]);
    await env.stack.refresh(["--clear-pending-creates"]);
    expect(JSON.stringify((await env.stack.exportState()).deployment)).not.toContain('pending_operations":[{');
    const del = await api(env, "DELETE", `/cloud/v1/subnets/1/1/${subnetId}`);
    for (let t = ""; t !== "FINISHED"; await new Promise((r) => setTimeout(r, 200)))
      t = (await api(env, "GET", `/cloud/v1/tasks/${del.body.tasks[0]}`)).body.state;
    await env.stack.up();
    expect(env.emulator.store.list("subnets")).toHaveLength(1);
    const [only] = env.emulator.store.list("subnets");
    const inState = (await env.stack.exportState()).deployment.resources?.filter((r) => r.type.endsWith("cims:Subnet")).map((r) => r.id);
    expect(inState).toEqual([only.id]);
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);
