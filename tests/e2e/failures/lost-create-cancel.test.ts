// A create whose answer was lost looks for its record (by its create mark) while its task may
// still make it. A cancel during that search ends it: the error names the create task(s) that
// were still running, so what they make can be found; the task goes on and makes a record that
// carries the mark and no stack records. The next run never makes a second: on the plugin face
// the mark names the resource, so the preview says it adopts the record and `up` adopts it; on
// the dynamic face (whose marks name no resource) the preview fails naming the record and how
// to adopt it, and so does the up, which makes no second. Marked records of another name are no
// concern. Both faces: the plugin gets the engine's Cancel (SIGTERM of `pulumi up`); the dynamic
// provider a SIGTERM of its own (as a job runner's cancel signals every process of the job),
// since the engine's Cancel never reaches it.
import { randomUUID } from "node:crypto";
import { api, type CimsTestEnv, type Face, faceProject, isKind, onFace, SEED, useStacks } from "../../support/cims";
import { descendants, upInBackground, whileRunning } from "../../support/background";
import { taskEnds } from "../../support/faults";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { imageRecord, subnetRecord } from "../../support/records";

const stacks = useStacks();

const MARK = "pulumi-cims-create-mark";
const program = `
import * as cims from "pulumi-cims";
new cims.Subnet("subnet", { name: "lost", cidr: "10.171.0.0/24", networkId: "${SEED.networkId}", timeouts: { create: 120 } });
new cims.BaremetalImage("image", { name: "lost", volumeId: "${SEED.volumeId}", timeouts: { create: 120 } });
`;
const POSTS = { create_subnet: "/cloud/v1/subnets/1/1", create_image: "/cloud/v1/bmimages/1/1" };

/** The one task of this type, once it has ended, and the id it names. */
async function ended(env: CimsTestEnv, type: keyof typeof POSTS): Promise<{ id: string; made: string }> {
  const [task] = Object.values(env.emulator.store.tasks).filter((t) => t.task_type === type);
  for (;;) {
    const t = (await api(env, "GET", `/cloud/v1/tasks/${task.id}`)).body;
    if (t.state === "FINISHED") return { id: task.id, made: Object.values(t.created_resources as Record<string, string[]>).flat()[0] };
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function cancelledThenNoTwin(face: Face): Promise<void> {
  const env = await stacks.stack({
    files: { "Pulumi.yaml": faceProject(`lost-${face}`, face), "index.ts": onFace(program, face) },
    taskDurationMs: 30_000,
  });
  // Each create's POST is acted on, then its answer lost.
  for (const path of Object.values(POSTS))
    expect((await api(env, "POST", "/__emulator/faults", { method: "POST", path, count: 1, action: "close-after" })).status).toBe(204);
  const run = await upInBackground(env.stack);
  // Both look for their records: each has asked which create tasks of the scope still run.
  const searching = () =>
    Object.keys(POSTS).every((type) =>
      env.emulator.logs.some((l) => l.startsWith("GET /cloud/v1/tasks?") && l.includes(`task_type=${type}`)),
    );
  await whileRunning(run, "both searches", searching);
  const signalled = [run.pid, ...(face === "dynamic" ? await descendants(run.pid, "dynamic-provider") : [])];
  if (face === "dynamic") expect(signalled).toHaveLength(2);
  for (const pid of signalled) process.kill(pid, "SIGTERM");
  const code = await run.exited;
  const output = run.output();
  expect({ failed: code !== 0, output }).toMatchObject({ failed: true });

  // The tasks went on and made each record, which still carries its create's mark.
  const subnet = await ended(env, "create_subnet");
  const image = await ended(env, "create_image");
  expect(output).toContain(`the run was cancelled) while create_subnet task(s) ${subnet.id}, started since its POST, still ran`);
  expect(output).toContain(`the run was cancelled) while create_image task(s) ${image.id}, started since its POST, still ran`);
  const resources = (await env.stack.exportState()).deployment.resources ?? [];
  expect(resources.filter((r) => isKind(r.type, "Subnet") || isKind(r.type, "BaremetalImage"))).toEqual([]);

  // Marked records of another name are not this program's concern.
  const other = { subnet: randomUUID(), image: randomUUID() };
  const seeded = await api(env, "POST", "/__emulator/seed", {
    subnets: [
      subnetRecord({
        id: other.subnet,
        name: "elsewhere",
        cidr: "10.172.0.0/24",
        gateway_ip: "10.172.0.1",
        tags: { [MARK]: randomUUID() },
      }),
    ],
    images: [imageRecord({ id: other.image, name: "elsewhere", tags: { [MARK]: randomUUID() } })],
  });
  expect(seeded.status).toBe(204);

  const preview = await env.stack.preview([], { allowFailure: face === "dynamic" });
  const said = preview.stdout + preview.stderr;
  for (const id of Object.values(other)) expect(said).not.toContain(id);
  if (face === "dynamic") {
    // Its marks name no resource: the preview fails at the first check that finds one (the engine
    // stops there), naming the record and how to adopt it.
    expect(preview.code).not.toBe(0);
    const named = [subnet.made, image.made].filter((made) => said.includes(`${made} of this name still carries the create mark ${MARK}`));
    expect(named.length).toBeGreaterThan(0);
    for (const made of named) expect(said).toContain(`adopt it by setting \`importId: "${made}"\` on this resource`);
    // So does every up, and it makes no second image, for which no overlap refuses a twin. The
    // subnet left is deleted first: its overlap alone fails the subnet's check, and the engine's
    // stop at that failure would race the image's create.
    await api(env, "PUT", "/__emulator/task-duration", { ms: 200 });
    const removing = (await api(env, "DELETE", `/cloud/v1/subnets/1/1/${subnet.made}`)).body.tasks[0];
    await taskEnds(env, removing);
    const up = await env.stack.up([], { allowFailure: true });
    expect(up.code).not.toBe(0);
    expect(up.stdout + up.stderr).toContain(`adopt it by setting \`importId: "${image.made}"\` on this resource`);
    expect(
      env.emulator.store
        .list("images")
        .filter((r) => r.name === "lost")
        .map((r) => r.id),
    ).toEqual([image.made]);
    return;
  }
  // The plugin's marks name the resource: the preview says each is adopted, and `up` adopts it.
  for (const [noun, made] of [
    ["subnet", subnet.made],
    ["image", image.made],
  ])
    expect(said).toContain(`adopts ${noun} ${made} left by this resource's cancelled create`);
  await env.stack.up();
  const recorded = ((await env.stack.exportState()).deployment.resources ?? []).filter(
    (r) => isKind(r.type, "Subnet") || isKind(r.type, "BaremetalImage"),
  );
  expect(recorded.map((r) => r.id).sort()).toEqual([subnet.made, image.made].sort());
  expect(env.emulator.store.list("subnets").filter((r) => r.name === "lost")).toHaveLength(1);
  expect(env.emulator.store.list("images").filter((r) => r.name === "lost")).toHaveLength(1);
}

test(
  "a cancel while a lost create looks for its record names its tasks; the next run makes no second: the plugin adopts it, the dynamic face refuses naming how to adopt it",
  async () => {
    await Promise.all([cancelledThenNoTwin("native"), cancelledThenNoTwin("dynamic")]);
  },
  E2E_TIMEOUT_MS,
);
