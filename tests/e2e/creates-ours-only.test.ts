// A create never takes over what it did not make, and every failure tells the truth (issue
// 20), under the real engine against the emulator:
// - another team's subnet holding the program's CIDR fails preview and up with its name, id
//   and CIDR, and stays untouched through up, up and destroy (before: recorded as ours,
//   renamed by the next up, deleted by destroy);
// - a create task that ends in ERROR is a plain failure with the service's message: no list
//   call after the POST, no advice to adopt;
// - a POST that a gateway answers 502 after the service acted: the subnet (absent from the
//   list taken before the POST) and the image are found and recorded, once each;
// - an image POST answered by a gateway's 503 page is not repeated, and the error says how
//   to find the image.
import { api, type CimsTestEnv, SEED, useStacks } from "../support/cims";
import { E2E_TIMEOUT_MS } from "../support/harness";
import { subnetRecord } from "../support/records";

const TEAM_B_ID = "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b";
const TEAM_B_TASK = "6d7e8f9a-0b1c-4d2e-9f3a-4b5c6d7e8f9a";

/** team-b's subnet: made by another team's task, on the network the program uses. */
const teamB = subnetRecord({
  id: TEAM_B_ID,
  name: "team-b-db",
  cidr: "10.77.0.0/24",
  gateway_ip: "10.77.0.1",
  creator_task_id: TEAM_B_TASK,
  tags: { owner: "team-b" },
});

const IMPORT = `import * as cims from "pulumi-cims";\n`;
const subnetDecl = (cidr: string) =>
  `export const id = new cims.Subnet("app-db", { name: "team-a-db", cidr: "${cidr}", networkId: "${SEED.networkId}" }).id;\n`;
const imageDecl = `export const imageId = new cims.BaremetalImage("golden", { name: "golden", volumeId: "${SEED.volumeId}" }).id;\n`;
const subnetProgram = (cidr: string) => IMPORT + subnetDecl(cidr);
const imageProgram = IMPORT + imageDecl;

const stacks = useStacks();
const stackWith = (program: string) =>
  stacks.stack({ files: { "Pulumi.yaml": "name: ours-only\nruntime: nodejs\n", "index.ts": program } });
const writes = (e: CimsTestEnv) =>
  Object.entries(e.emulator.metrics.snapshot().requests)
    .filter(([k]) => /^(POST|PATCH|PUT|DELETE) /.test(k))
    .map(([k, n]) => `${k} x${n}`);
const inState = async (e: CimsTestEnv, kind: string) =>
  ((await e.stack.exportState()).deployment.resources ?? []).filter((r) => r.type.endsWith(`cims:${kind}`)).map((r) => String(r.id));

test(
  "another team's subnet with the program's CIDR: preview and up fail naming it, with no write; it is untouched after up, up and destroy",
  async () => {
    const env = await stackWith(subnetProgram("10.77.0.0/24"));
    expect((await api(env, "POST", "/__emulator/seed", { subnets: [teamB] })).status).toBe(204);
    const held = structuredClone(env.emulator.store.list("subnets"));
    expect(held).toEqual([teamB]);
    env.emulator.metrics.reset();
    const named = `cidr: 10.77.0.0/24 overlaps subnet "team-b-db" (${TEAM_B_ID}, 10.77.0.0/24) on network ${SEED.networkId}`;

    const preview = await env.stack.preview([], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout).toContain(named);
    expect(preview.stdout).toContain(`importId: "${TEAM_B_ID}"`);
    for (let i = 0; i < 2; i++) {
      const up = await env.stack.up([], { allowFailure: true });
      expect(up.code).not.toBe(0);
      expect(up.stdout).toContain(named);
    }
    await env.stack.destroy();
    expect(writes(env)).toEqual([]);
    expect(await inState(env, "Subnet")).toEqual([]);
    expect(env.emulator.store.list("subnets")).toEqual(held);
  },
  E2E_TIMEOUT_MS,
);

test(
  "a create task that ends in ERROR: a plain failure with the service's message, no list call after the POST, no advice to adopt",
  async () => {
    const env = await stackWith(subnetProgram("10.78.0.0/24"));
    await api(env, "POST", "/__emulator/task-faults", {
      method: "POST",
      path: "/cloud/v1/subnets/1/1",
      count: 1,
      message: "Quota exceeded: subnet_count 100 of 100",
    });
    const up = await env.stack.up([], { allowFailure: true });
    expect(up.code).not.toBe(0);
    expect(up.stdout).toMatch(/Subnet "team-a-db": task [0-9a-f-]{36} \(create_subnet\) failed: Quota exceeded: subnet_count 100 of 100/);
    expect(up.stdout).not.toContain("importId");
    expect(up.stdout).not.toContain("may have created");
    const log = env.emulator.logs;
    const posted = log.findIndex((line) => line.startsWith("POST /cloud/v1/subnets/1/1 "));
    expect(posted).toBeGreaterThanOrEqual(0);
    expect(log.slice(posted).filter((line) => line.startsWith("GET /cloud/v1/subnets/1/1?"))).toEqual([]);
    expect(await inState(env, "Subnet")).toEqual([]);
    await env.stack.up();
    expect(env.emulator.store.list("subnets")).toHaveLength(1);
  },
  E2E_TIMEOUT_MS,
);

test(
  "POSTs a gateway answers 502 after the service acted: the subnet and the image it made are found and recorded, once each",
  async () => {
    const env = await stackWith(IMPORT + subnetDecl("10.79.0.0/24") + imageDecl);
    for (const path of ["/cloud/v1/subnets/1/1", "/cloud/v1/bmimages/1/1"]) {
      await api(env, "POST", "/__emulator/faults", { method: "POST", path, count: 1, action: "status-after", status: 502, proxy: true });
    }
    const up = await env.stack.up();
    expect(up.stdout).toMatch(/Subnet "team-a-db": the answer to its create was lost; [0-9a-f-]{36} did not exist before it/);
    expect(up.stdout).toMatch(/BaremetalImage "golden": the answer to its create was lost; [0-9a-f-]{36} did not exist before it/);
    const subnets = env.emulator.store.list("subnets").map((s) => String(s.id));
    const images = env.emulator.store.list("images").map((i) => String(i.id));
    expect(subnets).toHaveLength(1);
    expect(images).toHaveLength(1);
    expect(await inState(env, "Subnet")).toEqual(subnets);
    expect(await inState(env, "BaremetalImage")).toEqual(images);
    expect(env.emulator.metrics.snapshot().requests["POST /cloud/v1/bmimages/:project_id/:region_id 502"]).toBe(1);
    await env.stack.preview(["--expect-no-changes"]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "an image POST answered by a gateway's 503 page is not repeated (the service may have acted); the error says how to find the image",
  async () => {
    const env = await stackWith(imageProgram);
    await api(env, "POST", "/__emulator/faults", {
      method: "POST",
      path: "/cloud/v1/bmimages/1/1",
      count: 1,
      action: "status",
      status: 503,
      proxy: true,
    });
    const up = await env.stack.up([], { allowFailure: true });
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("503 Service Unavailable");
    expect(up.stdout).toContain(
      `The service may have created BaremetalImage "golden"; it is not in the stack. GET /cloud/v1/bmimages/1/1 lists the images: it is one named "golden" made from volume ${SEED.volumeId}, created after the POST`,
    );
    expect(up.stdout).toContain('importId: "<its id>"');
    const posts = Object.entries(env.emulator.metrics.snapshot().requests).filter(([k]) => k.startsWith("POST "));
    expect(posts).toEqual([["POST /cloud/v1/bmimages/:project_id/:region_id 503", 1]]);
    expect(await inState(env, "BaremetalImage")).toEqual([]);
    // The service did not act this time: the next up makes it.
    await env.stack.up();
    expect(env.emulator.store.list("images")).toHaveLength(1);
  },
  E2E_TIMEOUT_MS,
);
