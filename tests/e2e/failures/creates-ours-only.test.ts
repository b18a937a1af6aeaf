// A create never takes over what it did not make, and every failure tells the truth, under
// the real engine against the emulator:
// - another team's subnet holding the program's CIDR fails preview and up with its name, id
//   and CIDR, and stays untouched through up, up and destroy (before: recorded as ours,
//   renamed by the next up, deleted by destroy);
// - a POST that a gateway answers 502 before the service acted, while another team creates a
//   subnet and an image with the program's very names, CIDR and volume: neither is taken, on
//   either face; the error names the mark the create's record would carry.
// The provider's side of lost answers (a POST answered 502 after the service acted, two
// images of one program with one name and volume, an image POST answered 503 not repeated)
// runs in process on both faces: tests/unit/provider/faults/creates-ours-only.test.ts; a
// create task in ERROR (a plain failure: no list call after the POST, no advice to adopt):
// tests/unit/provider/faults/subnet-create-orphans.test.ts.
import { api, type CimsTestEnv, type Face, faceProject, onFace, SEED, useStacks } from "../../support/cims";
import { E2E_TIMEOUT_MS } from "../../support/harness";
import { subnetRecord } from "../../support/records";

const CREATE_MARK_TAG = "pulumi-cims-create-mark";

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

describe.each<Face>(["dynamic", "native"])("on the %s face", (face) => {
  test(
    "answers lost before the service acted while another team makes a subnet and an image with the program's name, CIDR and volume: neither is taken, up to destroy",
    async () => {
      const env = await stacks.stack({
        files: { "Pulumi.yaml": faceProject("ours-only", face), "index.ts": onFace(IMPORT + subnetDecl("10.81.0.0/24") + imageDecl, face) },
      });
      // The gateway answers the program's POSTs 502 (the service never saw them), 1.5 s late;
      // meanwhile team-b creates the same subnet and image, whose tasks run for 6 s: they are
      // listed while the provider looks for what its creates may have made.
      expect((await api(env, "PUT", "/__emulator/task-duration", { ms: 6000 })).status).toBe(204);
      for (const path of ["/cloud/v1/subnets/1/1", "/cloud/v1/bmimages/1/1"]) {
        const fault = { method: "POST", path, count: 1, action: "status", status: 502, proxy: true, delayMs: 1500 };
        expect((await api(env, "POST", "/__emulator/faults", fault)).status).toBe(204);
      }
      const running = env.stack.up([], { allowFailure: true });
      // team-b's POST goes once the program's has arrived (its fault is used up), before its answer.
      const arrived = (path: string) => !env.emulator.faults.requestFaults.some((f) => f.path === path);
      const teamB = async (path: string, body: object) => {
        while (!arrived(path)) await new Promise((r) => setTimeout(r, 10));
        return (await api(env, "POST", path, body)).status;
      };
      const made = await Promise.all([
        teamB("/cloud/v1/subnets/1/1", { name: "team-a-db", cidr: "10.81.0.0/24", network_id: SEED.networkId }),
        teamB("/cloud/v1/bmimages/1/1", { name: "golden", volume_id: SEED.volumeId }),
      ]);
      expect(made).toEqual([200, 200]);
      const up = await running;
      expect(up.code).not.toBe(0);
      for (const what of ['Subnet "team-a-db"', 'BaremetalImage "golden"']) {
        expect(up.stdout).toContain(`The service may have created ${what}; it is not in the stack.`);
      }
      expect(up.stdout).toMatch(new RegExp(`It would carry the tag ${CREATE_MARK_TAG}: [0-9a-f-]{36}`));
      expect(await inState(env, "Subnet")).toEqual([]);
      expect(await inState(env, "BaremetalImage")).toEqual([]);
      // team-b's records, once made, are theirs alone: untouched by the failed up and by destroy.
      const theirs = () => [...env.emulator.store.list("subnets"), ...env.emulator.store.list("images")];
      const held = structuredClone(theirs());
      expect(held.map((r) => r.name).sort()).toEqual(["golden", "team-a-db"]);
      await env.stack.destroy();
      expect(theirs()).toEqual(held);
      expect(writes(env).filter((w) => !w.startsWith("POST "))).toEqual([]);
    },
    E2E_TIMEOUT_MS,
  );
});
