// The plugin face under a cancel and under `customTimeouts`, on a subnet whose task is slow.
// Cancel (SIGTERM of `pulumi up` once the create's POST has been answered): the run ends
// within seconds, the subnet the task names is recorded as partly created, and the next `up`
// waits for the task and converges on that one subnet. (The dynamic face cannot see a cancel:
// its in-flight create runs to its end, interruption.test.ts.) customTimeouts `create: 8s`
// with `timeouts.create: 60`: the smaller wins, so the wait ends at ~8 s with the same
// partly-created outcome, and the next `up` settles it.
import { spawn } from "node:child_process";
import { type CimsTestEnv, PLUGIN_PROJECT, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS, PULUMI } from "../../support/harness";

const stacks = useStacks();

const program = (options: string) => `
import * as cims from "pulumi-cims";
const subnet = new cims.native.Subnet("subnet", {
  name: "slow", cidr: "10.170.0.0/24", networkId: "${SEED.networkId}", timeouts: { create: 60 },
}${options});
export const id = subnet.id;
`;

/** Starts `pulumi up`; resolves once the emulator has answered the subnet's POST (its request log says so). */
async function upUntilPosted(env: CimsTestEnv) {
  await env.stack.programRuns();
  const child = spawn(PULUMI, ["up", "--yes", "--skip-preview", "--stack", env.stack.name, "--non-interactive"], {
    cwd: env.stack.projectDir,
    env: env.stack.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  let exitedAt: number | undefined;
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on("close", (code) => resolve({ code, at: (exitedAt = Date.now()) })),
  );
  const deadline = Date.now() + 180_000;
  while (!env.emulator.logs.some((line) => /^POST \/cloud\/v1\/subnets\/1\/1 2\d\d /.test(line))) {
    if (Date.now() > deadline || exitedAt !== undefined) throw new Error(`up never POSTed the subnet:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, postedAt: Date.now(), exited, output: () => output };
}

/** The one create_subnet task, and the subnet it names. */
function createTask(env: CimsTestEnv) {
  const tasks = Object.values(env.emulator.store.tasks).filter((t) => t.task_type === "create_subnet");
  expect(tasks).toHaveLength(1);
  return { state: tasks[0].state, subnetId: (tasks[0].created_resources?.subnets as string[] | undefined)?.[0] };
}

/** The stack's Subnet: its id, and whether it is recorded as partly created. */
async function recorded(env: CimsTestEnv) {
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  return resources.filter((r) => r.type === "cims:index:Subnet").map((r) => ({ id: r.id, partly: (r.initErrors?.length ?? 0) > 0 }));
}

/** The next `up` settles the partly-created subnet: one subnet in the service, that one in the state, no diff after. */
async function settles(env: CimsTestEnv, subnetId: string) {
  await env.stack.up();
  expect(env.emulator.store.list("subnets").map((s) => s.id)).toEqual([subnetId]);
  expect(await recorded(env)).toEqual([{ id: subnetId, partly: false }]);
  await env.stack.preview(["--expect-no-changes"]);
}

test(
  "plugin face: SIGTERM mid-create ends the run within seconds, the subnet recorded partly created; customTimeouts create 8s (under timeouts.create 60) ends the wait at ~8 s the same way; each next up converges",
  async () => {
    const cancelled = async () => {
      const env = await stacks.stack({
        files: { "Pulumi.yaml": PLUGIN_PROJECT("plugin-cancel"), "index.ts": program("") },
        taskDurationMs: 15_000,
      });
      const run = await upUntilPosted(env);
      const signalledAt = Date.now();
      process.kill(run.child.pid!, "SIGTERM");
      const { code, at } = await run.exited;
      const task = createTask(env);
      // The run did not wait for the task: it still runs, and the run ended within seconds.
      // (The output shows when this fails.)
      expect({ failed: code !== 0, fast: at - signalledAt < 6_000, task: task.state, output: run.output() }).toMatchObject({
        failed: true,
        fast: true,
        task: "RUNNING",
      });
      expect(run.output()).toContain("the run was cancelled while waiting for task(s)");
      expect(await recorded(env)).toEqual([{ id: task.subnetId, partly: true }]);
      await settles(env, task.subnetId!);
    };

    const timedOut = async () => {
      const env = await stacks.stack({
        files: { "Pulumi.yaml": PLUGIN_PROJECT("plugin-timeouts"), "index.ts": program(`, { customTimeouts: { create: "8s" } }`) },
        taskDurationMs: 20_000,
      });
      const run = await upUntilPosted(env);
      const { code, at } = await run.exited;
      const task = createTask(env);
      const seconds = (at - run.postedAt) / 1000;
      expect({ failed: code !== 0, atEight: seconds > 7 && seconds < 15, task: task.state, output: run.output() }).toMatchObject({
        failed: true,
        atEight: true,
        task: "RUNNING",
      });
      expect(run.output()).toContain("timed out after 8s waiting for task(s)");
      expect(run.output()).toContain("raise the resource's `customTimeouts` option (create) and its `timeouts.create` input");
      expect(await recorded(env)).toEqual([{ id: task.subnetId, partly: true }]);
      await settles(env, task.subnetId!);
    };

    await Promise.all([cancelled(), timedOut()]);
  },
  E2E_TIMEOUT_MS,
);
