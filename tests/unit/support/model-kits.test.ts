// The lifecycle model's rows of a kind whose test kit gives them (tests/kits/kit.ts,
// LifecycleModel; tests/model/kits.ts): the program declares it, the generator edits each of
// its fields, adds and removes it; and the fixed seed's sequence, which the e2e tier runs,
// still deploys the lifecycle kinds it deployed when tests/model/ wrote every kind's rows.
import fc from "fast-check";
import { startEmulator } from "pulumi-cims/emulator";
import { KIND_NAMES, type Kind } from "../../../provider/kinds/registry";
import { KITS } from "../../kits";
import { Edit, initialModel, type Model } from "../../model/commands";
import { KIT_MODELS, kitEdits, kitHoldsAfterDestroy, kitHoldsAfterRefresh, kitHoldsAfterUp } from "../../model/kits";
import { type ProgramModel, renderProgram } from "../../model/program";
import { FIXED_SEED, sequenceArbitrary } from "../../model/run";
import { SEED, SEED_FILE } from "../../support/cims";

const LIFECYCLE_KINDS = KIND_NAMES.filter((k) => KITS[k].lifecycle !== undefined);

/** The kinds a program declares. */
function kindsOf(p: ProgramModel): Kind[] {
  return [
    ...(p.subnets.some(Boolean) ? ["Subnet" as const] : []),
    ...(p.images.some(Boolean) ? ["BaremetalImage" as const] : []),
    ...(p.pool ? ["LbPoolSettings" as const] : []),
    ...(p.policyVolume ? ["SnapshotPolicyVolume" as const] : []),
    ...KIT_MODELS.flatMap(([k]) => (p.kits[k]?.some(Boolean) ? [k] : [])),
  ];
}

/**
 * The kinds the program declares at each command that deploys it (an `up` of any sort), the
 * sequence's edits applied as the model run applies them: only those whose check holds, a
 * fault armed until the next pulumi command.
 */
async function deployedKinds(cmds: Iterable<fc.AsyncCommand<Model, never>>): Promise<Set<Kind>> {
  const model = initialModel();
  const deployed = new Set<Kind>();
  for (const cmd of cmds) {
    if (!cmd.check(model)) continue;
    const label = String(cmd);
    if (cmd instanceof Edit) await cmd.run(model);
    else if (/^arm fault|^the next up's POST/.test(label)) model.armed = true;
    else if (label.startsWith("pulumi")) {
      if (/^pulumi (up|preview --json, then pulumi up)/.test(label)) for (const k of kindsOf(model.program)) deployed.add(k);
      model.armed = false;
    }
  }
  return deployed;
}

/**
 * What the fixed seed's sequence deployed before the kits gave rows: its first program (a
 * subnet, the pool's settings, the quota threshold), deployed by an interrupted `up`. No seed of
 * ten commands deploys all five lifecycle kinds (the first program declares no image and no
 * policy: adding one and then an `up` is rare); the soak's long runs do.
 */
const FIXED_SEED_KINDS: Kind[] = ["Subnet", "LbPoolSettings", "QuotaThreshold"];

test("the fixed seed's sequence still deploys every lifecycle kind it deployed, one of them a kind whose kit gives its rows", async () => {
  const [cmds] = fc.sample(sequenceArbitrary(FIXED_SEED.maxCommands), { seed: FIXED_SEED.seed, numRuns: 1 });
  const deployed = await deployedKinds(cmds);
  expect([...deployed].sort()).toEqual(expect.arrayContaining(FIXED_SEED_KINDS.sort()));
  expect(FIXED_SEED_KINDS.every((k) => LIFECYCLE_KINDS.includes(k))).toBe(true);
  expect(KIT_MODELS.some(([k]) => deployed.has(k))).toBe(true);
});

test("a kind whose kit gives its lifecycle rows is declared by its kind's name, and each field edited, each slot added and removed", () => {
  expect(KIT_MODELS.map(([k]) => k)).toEqual(expect.arrayContaining(["QuotaThreshold", "SnapshotPolicyState"]));
  const labels = new Set(kitEdits().flatMap((arb) => fc.sample(arb, { seed: 1, numRuns: 500 }).map((e) => e.label)));
  for (const [kind, model] of KIT_MODELS) {
    const program = initialModel().program;
    program.kits[kind] = model.names.map((_n, slot) => model.added(slot));
    const text = renderProgram(program);
    for (const [slot, name] of model.names.entries()) {
      expect(text).toContain(`new cims.${kind}(${JSON.stringify(name)}, ${JSON.stringify(model.args(model.added(slot), slot))});`);
      expect(labels).toContain(`add ${name} (${kind})`);
      expect(labels).toContain(`remove ${name} (${kind})`);
      for (const [field, values] of Object.entries(model.fields))
        for (const v of values) expect(labels).toContain(`edit ${name}.${field} = ${v === undefined ? "omitted" : JSON.stringify(v)}`);
    }
  }
});

test("the first program declares what the kits' models start with, and an edit reaches the program's text", async () => {
  const model = initialModel();
  expect(renderProgram(model.program)).toContain('new cims.QuotaThreshold("quota", {"clientId":1,"threshold":80});');
  const edit = kitEdits()
    .flatMap((arb) => fc.sample(arb, { seed: 7, numRuns: 200 }))
    .find((e) => e.label === "edit quota.threshold = 95")!;
  await new Edit(
    edit.label,
    (p) => edit.valid(p.kits),
    (p) => edit.apply(p.kits),
  ).run(model);
  expect(renderProgram(model.program)).toContain('new cims.QuotaThreshold("quota", {"clientId":1,"threshold":95});');
});

test("the invariants of a kit's rows read the service's record: they hold where it is as the program says, and name each field where it is not", async () => {
  const emulator = await startEmulator({ apiKey: "model-kits-unit-key", seed: SEED_FILE, taskDurationMs: 50 });
  try {
    const env = { emulator };
    const quota = {
      urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/cims:QuotaThreshold::quota",
      id: SEED.clientId,
      type: "x",
      outputs: { clientId: Number(SEED.clientId), threshold: 80 },
    };
    const policy = {
      urn: "urn:pulumi:s::p::pulumi-nodejs:dynamic/cims:SnapshotPolicyState::policy",
      id: SEED.policyId,
      type: "x",
      outputs: { policyId: Number(SEED.policyId), name: "other", status: "paused" },
    };
    const seeded = emulator.store.get("lifecycle_policies", Number(SEED.policyId))!;
    const differing = (holds: ReadonlyArray<readonly [string, unknown, unknown]>) =>
      holds.filter(([, a, e]) => JSON.stringify(a) !== JSON.stringify(e)).map(([what]) => what);

    const program = { QuotaThreshold: [{ threshold: 80 }], SnapshotPolicyState: [{ name: seeded.name, status: seeded.status }] };
    expect(differing(kitHoldsAfterUp(env, program, [quota, policy]))).toEqual([]);
    expect(
      differing(
        kitHoldsAfterUp(
          env,
          { QuotaThreshold: [{ threshold: 95 }], SnapshotPolicyState: [{ status: "active" === seeded.status ? "paused" : "active" }] },
          [quota, policy],
        ),
      ),
    ).toEqual(["policy.status", "quota.threshold"]);
    // Not declared: the threshold is the service's default, 80; another is not.
    expect(differing(kitHoldsAfterUp(env, {}, []))).toEqual([]);
    expect(differing(kitHoldsAfterDestroy(env))).toEqual([]);
    emulator.store.list("client_quotas").find((q) => String(q.client_id) === SEED.clientId)!.threshold = 70;
    expect(differing(kitHoldsAfterDestroy(env))).toEqual(["quota after destroy: threshold (the service's default)"]);
    // A refresh: the state's outputs as the record; the policy's name, and the threshold set outside, differ.
    expect(differing(kitHoldsAfterRefresh(env, [quota, policy]))).toEqual([
      "policy after refresh: name, status",
      "quota after refresh: threshold",
    ]);
  } finally {
    await emulator.close();
  }
});
