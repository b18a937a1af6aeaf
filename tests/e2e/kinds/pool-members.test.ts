// LbPoolSettings on a pool another stack adds members to, on both faces: stack A declares the
// seeded member and stack B adds one with an LbPoolMember and adopts another with importId.
// A's unrelated update (lbAlgorithm) keeps B's members; a weight change is one member PATCH in
// place (same id); an update writes only what its diff showed (a drifted lbAlgorithm is set
// back only after refresh); exclusive ownership names in its preview each member it removes
// and removes exactly those; destroy while another stack's member create holds the pool lock
// leaves that member (the end of the same run: each stack costs `pulumi` commands, and a
// delete removes the stack's members by id whatever the ownership); `pulumi import` then
// destroy leaves the members others added.
import { api, type CimsTestEnv, type Face, faceProject, onFace, PLUGIN_PROJECT, SEED, useStacks, warningLines } from "../../support/cims";
import { E2E_TIMEOUT_MS, type TestStack } from "../../support/harness";

const stacks = useStacks();

const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
const MEMBER_ROUTE = "/cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members";

const programA = [
  'import * as pulumi from "@pulumi/pulumi";',
  'import * as cims from "pulumi-cims";',
  "const c = new pulumi.Config();",
  'new cims.LbPoolSettings("web", {',
  `  poolId: "${SEED.poolId}",`,
  '  name: c.get("name") ?? "team-a",',
  '  lbAlgorithm: (c.get("algorithm") ?? "ROUND_ROBIN") as "ROUND_ROBIN" | "LEAST_CONNECTIONS",',
  '  membersOwnership: c.get("ownership") as "declared" | "exclusive" | undefined,',
  '  members: [{ address: "10.0.0.10", protocolPort: 8080, weight: c.getNumber("weight") ?? 1 }],',
  "});",
].join("\n");

const programB = (adopt: string) =>
  [
    'import * as cims from "pulumi-cims";',
    `new cims.LbPoolMember("b-made", { poolId: "${SEED.poolId}", address: "10.0.0.55", protocolPort: 8080 });`,
    `new cims.LbPoolMember("b-adopted", { poolId: "${SEED.poolId}", address: "10.0.0.56", protocolPort: 8080, importId: "${adopt}" });`,
  ].join("\n");

type PoolMember = { id: string; address: string; weight: number };
const members = async (env: CimsTestEnv): Promise<PoolMember[]> => (await api(env, "GET", POOL_PATH)).body.members;
const addresses = async (env: CimsTestEnv) => (await members(env)).map((m) => m.address).sort();

async function settle(env: CimsTestEnv, taskId: string): Promise<void> {
  for (let s = ""; s !== "FINISHED"; await new Promise((r) => setTimeout(r, 100))) {
    s = (await api(env, "GET", `/cloud/v1/tasks/${taskId}`)).body.state;
    if (s === "ERROR") throw new Error(`task ${taskId} failed`);
  }
}

/** A member another team adds outside Pulumi (POST, then its task); its id. */
async function addOutside(env: CimsTestEnv, address: string): Promise<string> {
  const task = (await api(env, "POST", MEMBERS, { address, protocol_port: 8080 })).body.tasks[0];
  await settle(env, task);
  return String((await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.created_resources.members[0]);
}

/** Another stack on the same emulator (another team's project). */
function sibling(env: CimsTestEnv, name: string, face: Face, program: string): Promise<TestStack> {
  return stacks.bare({
    files: { "Pulumi.yaml": faceProject(name, face), "index.ts": onFace(program, face) },
    config: { "cims:apiUrl": env.emulator.url, "cims:projectId": "1", "cims:regionId": "1" },
    secrets: { "cims:apiKey": env.apiKey },
    typeCheck: false,
  });
}

/** The writes since the last reset, `METHOD route status`. */
const writes = (env: CimsTestEnv) =>
  Object.entries(env.emulator.metrics.snapshot().requests)
    .filter(([k]) => /^(POST|PATCH|PUT|DELETE) /.test(k))
    .map(([k, n]) => `${k} x${n}`);

const warnings = (out: { stdout: string; stderr: string }) => warningLines(out.stdout + out.stderr);

test.each<Face>(["dynamic", "native"])(
  "%s face: A's unrelated update keeps B's members (made and adopted); a weight is one PATCH in place; only diffed fields are written; exclusive removes exactly what its preview names; destroy under another stack's pool lock removes the stack's member only",
  async (face) => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": faceProject(`pool-a-${face}`, face), "index.ts": onFace(programA, face) } });
    const a = env.stack;
    await a.up();
    const adopted = await addOutside(env, "10.0.0.56");
    const b = await sibling(env, `pool-b-${face}`, face, programB(adopted));
    await b.up();
    expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.55", "10.0.0.56"]);

    // A changes only lbAlgorithm: the preview shows only that, and B's members stay.
    await a.setConfig("algorithm", "LEAST_CONNECTIONS");
    const preview = await a.preview(["--diff", "--color", "never"]);
    expect(preview.stdout).toMatch(/~ lbAlgorithm\s*: "ROUND_ROBIN" => "LEAST_CONNECTIONS"/);
    expect(preview.stdout).not.toMatch(/[~+-] members/);
    env.emulator.metrics.reset();
    await a.up();
    expect(writes(env)).toEqual([`PATCH /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200 x1`]);
    expect(await addresses(env)).toEqual(["10.0.0.10", "10.0.0.55", "10.0.0.56"]);
    await b.preview(["--expect-no-changes"]);

    // In one up, after lbAlgorithm drifted outside Pulumi: a weight is one PATCH of that member,
    // in place (its id unchanged), and the rename writes the name only (the drift stays, out of
    // the state: the next preview is clean). After refresh the drift shows, and up sets it back
    // in the open.
    await settle(env, (await api(env, "PATCH", POOL_PATH, { lb_algorithm: "SOURCE_IP" })).body.tasks[0]);
    await a.setConfig("weight", "4");
    await a.setConfig("name", "team-a-2");
    env.emulator.metrics.reset();
    await a.up();
    expect(writes(env).sort()).toEqual(
      [`PATCH ${MEMBER_ROUTE}/:member_id 200 x1`, `PATCH /cloud/v1/lbpools/:project_id/:region_id/:pool_id 200 x1`].sort(),
    );
    expect((await members(env)).find((m) => m.address === "10.0.0.10")).toMatchObject({ id: SEED.keptMemberId, weight: 4 });
    expect((await api(env, "GET", POOL_PATH)).body).toMatchObject({ name: "team-a-2", lb_algorithm: "SOURCE_IP" });
    await a.preview(["--expect-no-changes"]);
    await a.refresh();
    expect((await a.preview(["--diff", "--color", "never"])).stdout).toMatch(/~ lbAlgorithm\s*: "SOURCE_IP" => "LEAST_CONNECTIONS"/);
    await a.up();
    expect((await api(env, "GET", POOL_PATH)).body.lb_algorithm).toBe("LEAST_CONNECTIONS");

    // B leaves; another team adds two members with the pool's whole-list update. Exclusive:
    // the preview names every member it removes, and up removes exactly those.
    await b.destroy();
    expect(await addresses(env)).toEqual(["10.0.0.10"]);
    const list = [
      { address: "10.0.0.10", protocol_port: 8080 },
      ...["10.0.0.77", "10.0.0.78"].map((address) => ({ address, protocol_port: 8080 })),
    ];
    await settle(env, (await api(env, "PATCH", POOL_PATH, { members: list })).body.tasks[0]);
    const idOf = async (address: string) => (await members(env)).find((m) => m.address === address)?.id;
    const [other, third] = [await idOf("10.0.0.77"), await idOf("10.0.0.78")];
    await a.setConfig("ownership", "exclusive");
    const exclusive = await a.preview();
    expect(warnings(exclusive)).toContain(
      `LbPoolSettings of pool ${SEED.poolId}: the update removes member(s) 10.0.0.77:8080 (id ${other}), 10.0.0.78:8080 (id ${third})`,
    );
    env.emulator.metrics.reset();
    await a.up();
    expect(writes(env)).toEqual([`DELETE ${MEMBER_ROUTE}/:member_id 200 x2`]);
    expect((await members(env)).map((m) => m.id)).toEqual([SEED.keptMemberId]);
    await a.preview(["--expect-no-changes"]);

    // Destroy while another stack's member create holds the pool (its task, 8 s): the destroy
    // meets the lock (409), waits it out, and removes the stack's member only, by id; it never
    // writes the pool's list, and that member survives.
    await api(env, "PUT", "/__emulator/task-duration", { ms: 8000 });
    const creating = (await api(env, "POST", MEMBERS, { address: "10.0.0.88", protocol_port: 8080 })).body.tasks[0];
    env.emulator.metrics.reset();
    await a.destroy();
    await settle(env, creating);
    await api(env, "PUT", "/__emulator/task-duration", { ms: 300 });
    expect((await members(env)).map((m) => m.address)).toEqual(["10.0.0.88"]);
    const requests = env.emulator.metrics.snapshot().requests;
    expect(requests[`DELETE ${MEMBER_ROUTE}/:member_id 409`]).toBeGreaterThan(0);
    expect(writes(env).filter((w) => w.startsWith("PATCH"))).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

test(
  "pulumi import of an LbPoolSettings then destroy removes the members it declares and leaves those others added since",
  async () => {
    const env = await stacks.stack({ files: { "Pulumi.yaml": PLUGIN_PROJECT("pool-import"), "index.ts": "" } });
    const { stack } = env;
    await stack.run([
      "import",
      "cims:index:LbPoolSettings",
      "pool",
      `1/1/${SEED.poolId}`,
      "--yes",
      "--protect=false",
      "--generate-code=false",
      "--stack",
      stack.name,
    ]);
    const state = ((await stack.exportState()).deployment.resources ?? []).find((r) => r.type === "cims:index:LbPoolSettings");
    const theirs = await addOutside(env, "10.0.0.99");
    await stack.refresh();
    await stack.destroy();
    expect((await members(env)).map((m) => m.id)).toEqual([theirs]);
    // What the import recorded: the member its program lists, by id.
    expect(state?.outputs).toMatchObject({
      declaredMembers: ["10.0.0.10:8080"],
      declaredMemberIds: { "10.0.0.10:8080": SEED.keptMemberId },
    });
  },
  E2E_TIMEOUT_MS,
);
