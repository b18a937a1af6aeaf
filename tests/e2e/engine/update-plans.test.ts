// Update plans (`pulumi preview --save-plan`, then `pulumi up --plan`): the preview a reviewer
// approved is what runs, on both faces. One stack per face walks the golden previews' scenarios
// (tests/e2e/engine/preview-diff-golden.test.ts): a create; then a subnet renamed outside
// Pulumi and refreshed, a rename, a CIDR that replaces, a rename under `ignoreChanges: ["tags"]`
// with its tags changed by the program and outside it, a shared pool's setting changed while
// another stack's member is in it, and a pool member on the replaced subnet (its subnetId is
// known only once the subnet is made, so the plan holds it unknown). Each plan applied writes exactly what it says: the
// emulator's POST/PATCH/PUT/DELETE follow from the plan's steps, and each update's PATCH sends
// the keys the plan updates and no other. On the plugin face, `up --strict` applies a rename
// likewise, and three tamper cases fail with no write at all, naming the resource: the program
// changed after its plan was saved; the record drifted after it (`up --refresh --plan`: without a
// refresh the engine cannot see the service); another stack changed the shared pool's setting
// after it (the engine's checks, the same on either face: the dynamic face's walk leaves them out,
// the test says why). On both faces, a stack config value that no resource reads, changed after
// a plan: the plugin face applies the plan (last), the dynamic face's default provider carries
// the whole config and fails the plan (the changes' plan, which applies once the value is
// removed; the engine's check, which docs/platform.md quotes). The
// `preview --json` of the changes is summed up per stack by docs/platform.md's jq one-liner, run
// here on it.
import { execFile } from "node:child_process";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, type CimsTestEnv, type Face, faceProject, onFace, SEED, useStacks, writes } from "../../support/cims";
import { E2E_TIMEOUT_MS, REPO_ROOT, type RunResult } from "../../support/harness";

const stacks = useStacks();

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";

const c = new pulumi.Config();
new cims.Subnet("renamed", { name: c.get("name") ?? "renamed", cidr: "10.81.0.0/24", networkId: "${SEED.networkId}" });
new cims.Subnet("drifted", { name: "drifted", cidr: "10.82.0.0/24", networkId: "${SEED.networkId}", tags: { team: "net" } });
const moved = new cims.Subnet("moved", { name: "moved", cidr: c.get("cidr") ?? "10.83.0.0/24", networkId: "${SEED.networkId}" });
// On the subnet: its id is known only once the subnet is created (or replaced).
new cims.LbPoolMember("member", { poolId: "${SEED.poolId}", address: (c.get("cidr") ?? "10.83.0.0/24").replace("0/24", "20"), protocolPort: 8081, subnetId: moved.id });
new cims.Subnet("kept", { name: c.get("keptName") ?? "kept", cidr: "10.85.0.0/24", networkId: "${SEED.networkId}", tags: { team: c.get("keptTeam") ?? "net" } }, { ignoreChanges: ["tags"] });
new cims.LbPoolSettings("pool", {
  poolId: "${SEED.poolId}",
  lbAlgorithm: (c.get("algorithm") ?? "ROUND_ROBIN") as "ROUND_ROBIN" | "LEAST_CONNECTIONS",
  members: [{ address: "10.0.0.10", protocolPort: 8080, weight: c.getNumber("weight") ?? 1 }],
  adoptMembers: ["${SEED.keptMemberId}"],
});
`;

const SUBNETS = "/cloud/v1/subnets/:project_id/:region_id";
const SUBNET = `${SUBNETS}/:subnet_id`;
const POOL = "/cloud/v1/lbpools/:project_id/:region_id/:pool_id";
const MEMBERS = "/cloud/v1/loadbalancers/:project_id/:region_id/pools/:pool_id/members";
const MEMBER = `${MEMBERS}/:member_id`;
const STEP_AS = { "create-replacement": "create", "delete-replaced": "delete" } as Record<string, string>;

/**
 * The service's writes a step of a plan stands for. A subnet's create is its POST and the PATCH
 * that removes its create's one-time mark. The pool's create here adopts the member the program
 * lists and writes nothing; its update PATCHes the pool for its settings and the member whose
 * weight changed.
 */
function writesOfStep(kind: string, step: string, keys: string[]): string[] {
  if (kind === "Subnet")
    return (
      (
        { create: [`POST ${SUBNETS}`, `PATCH ${SUBNET}`], update: [`PATCH ${SUBNET}`], delete: [`DELETE ${SUBNET}`] } as Record<
          string,
          string[]
        >
      )[step] ?? []
    );
  if (kind === "LbPoolMember")
    return (
      ({ create: [`POST ${MEMBERS}`], update: [`PATCH ${MEMBER}`], delete: [`DELETE ${MEMBER}`] } as Record<string, string[]>)[step] ?? []
    );
  if (kind !== "LbPoolSettings" || step !== "update") return [];
  return [...(keys.some((k) => k !== "members") ? [`PATCH ${POOL}`] : []), ...(keys.includes("members") ? [`PATCH ${MEMBER}`] : [])];
}
const OURS = new Set(["Subnet", "LbPoolSettings", "LbPoolMember"]);

interface Plan {
  resourcePlans: Record<string, { steps?: string[]; goal?: { inputDiff?: { updates?: Record<string, unknown> } } }>;
}

/** A resource's kind, from its URN on either face: `...::pulumi-nodejs:dynamic/cims:Subnet::name` or `...::cims:index:Subnet::name`. */
const kindOf = (urn: string) => urn.split("::")[2].split(":").pop()!;
const nameOf = (urn: string) => urn.split("::").pop()!;

/** What a plan says the service is sent: each of our resources' steps as writes, `METHOD route`, sorted. */
function writesOfPlan(plan: Plan): string[] {
  return Object.entries(plan.resourcePlans)
    .filter(([urn]) => OURS.has(kindOf(urn)))
    .flatMap(([urn, r]) =>
      (r.steps ?? []).flatMap((step) => writesOfStep(kindOf(urn), STEP_AS[step] ?? step, Object.keys(r.goal?.inputDiff?.updates ?? {}))),
    )
    .sort();
}

/** The resources a plan changes, by name: their steps. */
const stepsOfPlan = (plan: Plan) =>
  Object.fromEntries(
    Object.entries(plan.resourcePlans)
      .filter(([urn, r]) => OURS.has(kindOf(urn)) && (r.steps ?? []).some((s) => s !== "same"))
      .map(([urn, r]) => [nameOf(urn), r.steps]),
  );

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The writes the emulator counted since the last reset, `METHOD route` once per request, sorted. */
const sentWrites = (env: CimsTestEnv) =>
  writes(env)
    .flatMap((w) => {
      const [, route, n] = /^(.*) \d{3} x(\d+)$/.exec(w)!;
      return Array<string>(Number(n)).fill(route);
    })
    .sort();

/** The request log's lines from `from` (a byte offset) on: each write's method, path and body. */
async function loggedSince(env: CimsTestEnv, from: number): Promise<Array<{ method: string; path: string; body: unknown }>> {
  const text = (await fs.readFile(env.emulator.requestLog!)).subarray(from).toString("utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { method: string; path: string; body: unknown });
}

/** docs/platform.md's one-line summary of a stack's `preview --json`, as the page shows it. */
async function summaryFilter(): Promise<string> {
  const doc = await fs.readFile(path.join(REPO_ROOT, "docs/platform.md"), "utf8");
  const found = /pulumi preview --json --stack dev \| jq -r --arg stack dev '([^']+)'/.exec(doc);
  if (!found) throw new Error("docs/platform.md shows no `pulumi preview --json --stack dev | jq -r --arg stack dev '...'` line");
  return found[1];
}

function jq(filter: string, input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("jq", ["-r", "--arg", "stack", "e2e", filter], (err, stdout, stderr) =>
      err ? reject(new Error(`jq: ${stderr}`)) : resolve(stdout.trim()),
    );
    child.stdin!.end(input);
  });
}

const said = (r: RunResult) => `${r.stdout}\n${r.stderr}`;

test.each<Face>(["dynamic", "native"])(
  "update plans on the %s face: each golden scenario writes exactly what its plan says; a config value no resource reads changed after the plan fails it only on the dynamic face; on the plugin face, up --strict, and a program changed, a record drifted or a shared pool changed after the plan fails with no write",
  async (face) => {
    const env = await stacks.stack({
      files: {
        "Pulumi.yaml": faceProject(`plans-${face}`, face),
        "package.json": '{ "name": "plans" }\n',
        "index.ts": onFace(PROGRAM, face),
      },
    });
    const s = env.stack;
    const source = (text: string) => fs.writeFile(path.join(s.projectDir, "index.ts"), onFace(text, face));
    const subnetId = (name: string) => String(env.emulator.store.list("subnets").find((x) => x.name === name)!.id);

    const savePlan = async (name: string): Promise<{ file: string; plan: Plan; preview: string }> => {
      const file = path.join(s.projectDir, `${name}.plan.json`);
      const preview = await s.preview(["--save-plan", file, "--json"]);
      return { file, plan: JSON.parse(await fs.readFile(file, "utf8")) as Plan, preview: preview.stdout };
    };
    const applyPlan = async (file: string, extra: string[] = []) => {
      env.emulator.metrics.reset();
      const from = (await fs.stat(env.emulator.requestLog!)).size;
      const up = await s.run(["up", "--yes", "--plan", file, ...extra, "--stack", s.name], { allowFailure: true });
      return { up, sent: sentWrites(env), logged: await loggedSince(env, from) };
    };
    /** Applies a plan that must succeed: the writes are those of its steps, each update's PATCH only the keys it updates. */
    const appliesExactly = async (planned: { file: string; plan: Plan }, extra: string[] = []) => {
      const { up, sent, logged } = await applyPlan(planned.file, extra);
      expect({ code: up.code, sent }).toEqual({ code: 0, sent: writesOfPlan(planned.plan) });
      const ids = Object.fromEntries(((await s.exportState()).deployment.resources ?? []).map((r) => [r.urn, String(r.id)]));
      for (const [urn, r] of Object.entries(planned.plan.resourcePlans)) {
        if (kindOf(urn) !== "Subnet" || !(r.steps ?? []).includes("update")) continue;
        const patches = logged.filter((l) => l.method === "PATCH" && l.path.endsWith(`/${ids[urn]}`));
        const keys = Object.keys(r.goal?.inputDiff?.updates ?? {}).map(snake);
        expect({ urn, bodies: patches.map((p) => Object.keys(p.body as object).sort()) }).toEqual({ urn, bodies: [keys.sort()] });
      }
    };

    /**
     * A config value no resource reads, changed after the plan: the plugin face applies the plan,
     * the dynamic face's default provider carries the whole config and fails it.
     */
    const configChangedAfter = async (planned: { file: string; plan: Plan }) => {
      await s.setConfigs({ unrelated: "x" });
      if (face === "native") return appliesExactly(planned);
      const config = await applyPlan(planned.file);
      expect({ code: config.up.code, sent: config.sent }).toEqual({ code: 1, sent: [] });
      expect(said(config.up)).toContain(
        `pulumi:providers:pulumi-nodejs::default violates plan: properties changed: =+plans-${face}:unrelated[{x}]`,
      );
    };

    // A create.
    const created = await savePlan("create");
    expect(Object.values(stepsOfPlan(created.plan))).toEqual(Array(6).fill(["create"]));
    await appliesExactly(created);

    // Drift refreshed (a subnet renamed outside Pulumi, another stack's member in the shared
    // pool), then a rename, a replacing CIDR, a rename under ignoreChanges whose tags changed in
    // the program and outside it, and a shared pool's setting.
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${subnetId("drifted")}`, { name: "drifted-outside" })).status).toBe(200);
    const members = `/cloud/v1/loadbalancers/1/1/pools/${SEED.poolId}/members`;
    const task = (await api(env, "POST", members, { address: "10.0.0.55", protocol_port: 8080 })).body.tasks[0];
    for (let st = ""; st !== "FINISHED"; await new Promise((r) => setTimeout(r, 100)))
      st = (await api(env, "GET", `/cloud/v1/tasks/${task}`)).body.state;
    await s.refresh();
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${subnetId("kept")}`, { tags: { "cost-center": "cc-42" } })).status).toBe(200);
    await s.setConfigs({ name: "renamed-2", cidr: "10.84.0.0/24", keptName: "kept-2", keptTeam: "apps", algorithm: "LEAST_CONNECTIONS" });
    const changes = await savePlan("changes");
    expect(stepsOfPlan(changes.plan)).toEqual({
      renamed: ["update"],
      drifted: ["update"],
      moved: ["create-replacement", "replace", "delete-replaced"],
      member: ["create-replacement", "replace", "delete-replaced"],
      kept: ["update"],
      pool: ["update"],
    });
    // What a bot posts for the stack: every step with the keys it changes, on either face.
    expect(await jq(await summaryFilter(), changes.preview)).toBe(
      "e2e: replace member[address,subnetId], replace moved[cidr], update drifted[name], update kept[name], update pool[lbAlgorithm], update renamed[name]",
    );
    const steps = (JSON.parse(changes.preview) as { steps: Array<{ op: string; diffReasons?: string[]; replaceReasons?: string[] }> })
      .steps;
    const changed = steps.filter((st) => st.op !== "same");
    // The plugin's Diff names the changed keys itself; Pulumi's dynamic-provider host carries a
    // replacement's keys only (the summary finds the others in the step's old and new inputs).
    expect(changed.map((st) => (st.diffReasons ?? []).length > 0)).toEqual(changed.map(() => face === "native"));
    expect(changed.filter((st) => st.op === "replace").map((st) => st.replaceReasons?.sort())).toEqual(
      expect.arrayContaining([["cidr"], ["address", "subnetId"]]),
    );
    // On the dynamic face, the one step whose outcome differs between the faces: a config value
    // no resource reads, changed after the plan, fails it with no write; removed, the plan applies.
    if (face === "dynamic") {
      await configChangedAfter(changes);
      await s.run(["config", "rm", "unrelated", "--stack", s.name]);
    }
    // With --refresh, as on merge: nothing changed since the plan, so nothing fails it.
    await appliesExactly(changes, ["--refresh"]);
    const kept = env.emulator.store.list("subnets").find((x) => x.cidr === "10.85.0.0/24")!;
    expect((kept.tags as Array<{ key: string; value: string }>).filter((t) => t.key !== "creator_task_id")).toEqual([
      expect.objectContaining({ key: "team", value: "net" }),
      expect.objectContaining({ key: "cost-center", value: "cc-42" }),
    ]);
    const pool = (await api(env, "GET", `/cloud/v1/lbpools/1/1/${SEED.poolId}`)).body;
    expect(pool.members.map((m: { address: string }) => m.address).sort()).toEqual(["10.0.0.10", "10.0.0.55", "10.84.0.20"]);

    // The dynamic face's walk ends here: it met the config value no resource reads on the
    // changes' plan above. The steps it leaves to the plugin face are the engine's check of a plan
    // against its own preview (`--strict`), the program and the refreshed state, which is the same
    // whichever provider answers: what the faces do differently in them is their Diff (the changes'
    // plan above, on both faces; a member weight's change is an update of the pool alone, as the
    // plugin face's plan below and preview-diff-golden.test.ts's changes.dynamic show) and their Read
    // after drift (the state a refresh records on the dynamic face is preview-diff-golden.test.ts's,
    // drift and shared pool).
    if (face === "dynamic") return;

    // `up --strict`: the plan of its own preview.
    await s.setConfigs({ name: "renamed-3" });
    env.emulator.metrics.reset();
    await s.run(["up", "--yes", "--strict", "--stack", s.name]);
    expect(sentWrites(env)).toEqual([`PATCH ${SUBNET}`]);

    // The program changed after its plan was saved.
    await source(PROGRAM.replace('name: "drifted"', 'name: "drifted-3"'));
    const renaming = await savePlan("renaming");
    await source(PROGRAM.replace('name: "drifted"', 'name: "drifted-4"'));
    const edited = await applyPlan(renaming.file);
    expect({ code: edited.up.code, sent: edited.sent }).toEqual({ code: 1, sent: [] });
    expect(said(edited.up)).toContain(`::drifted violates plan: properties changed: ~~name[{drifted-3}!={drifted-4}]`);

    // The record drifted after the plan: the up's refresh sees it.
    await source(PROGRAM.replace('name: "drifted"', 'name: "drifted-3"'));
    const drifted = subnetId("drifted");
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${drifted}`, { tags: { team: "other" } })).status).toBe(200);
    const drift = await applyPlan(renaming.file, ["--refresh"]);
    expect({ code: drift.up.code, sent: drift.sent }).toEqual({ code: 1, sent: [] });
    expect(said(drift.up)).toContain("::drifted violates plan: properties changed: =~tags[{map[team:{net}]}]");
    expect((await api(env, "PATCH", `/cloud/v1/subnets/1/1/${drifted}`, { tags: { team: "net" } })).status).toBe(200);
    await source(PROGRAM);

    // Another stack changed the shared pool's setting after the plan.
    await s.setConfigs({ weight: "3" });
    const weighted = await savePlan("weight");
    expect(stepsOfPlan(weighted.plan)).toEqual({ pool: ["update"] });
    expect((await api(env, "PATCH", `/cloud/v1/lbpools/1/1/${SEED.poolId}`, { lb_algorithm: "SOURCE_IP" })).status).toBe(200);
    const raced = await applyPlan(weighted.file, ["--refresh"]);
    expect({ code: raced.up.code, sent: raced.sent }).toEqual({ code: 1, sent: [] });
    expect(said(raced.up)).toContain("::pool violates plan: properties changed: =~lbAlgorithm[{LEAST_CONNECTIONS}]");
    expect((await api(env, "PATCH", `/cloud/v1/lbpools/1/1/${SEED.poolId}`, { lb_algorithm: "LEAST_CONNECTIONS" })).status).toBe(200);

    return configChangedAfter(weighted);
  },
  E2E_TIMEOUT_MS,
);
