// A SnapshotPolicy create whose answer is lost, in process on both faces (the provider as the
// engine calls it, against the emulator, on the test clock): the POST carries a one-time mark in
// the policy's name (a policy has no tags), so after a lost answer (a gateway's 502, a reset, an
// answer slower than the request timeout, each after the service acted) the policy carrying
// that mark is found, recorded once, and its name set to the program's; the POST is never
// repeated. A policy of the program's name with no mark, or with another resource's mark, is
// never taken; one whose mark names no resource (a lost create on the dynamic face) stops the
// preview and the create, naming it and how to adopt it, and one whose mark names this very
// resource (the plugin face knows its URN) is taken by the next create with no second POST.
import { randomBytes } from "node:crypto";
import { setLogSink } from "../../../../provider/methods/context";
import { ownerKey } from "../../../../provider/methods/mark";
import { api, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { failureOf, urnOf } from "./faces";
import { withEmulatedState } from "./matrix";

const ROW_TIMEOUT_MS = 60_000;
const POLICIES = "/cloud/v1/lifecycle_policy/1/1";
const POLICY_ROUTE = "/cloud/v1/lifecycle_policy/:project_id/:region_id";
/** A create's mark as the policy's name carries it, naming the resource of `urn` or none. */
const markOf = (urn?: string) => `cims-create-${randomBytes(6).toString("hex")}${urn ? `-${ownerKey(urn).slice(0, 12)}` : ""}`;
const program = { name: "nightly", schedules: [{ type: "interval", hours: 6, maxQuantity: 4 }] };

const policies = (env: Emulated) => env.emulator.store.list("lifecycle_policies");
/** The policies named as the program's, with a mark or not (the seed's others are no part of the rows). */
const named = (env: Emulated) => policies(env).filter((p) => p.name === "nightly" || String(p.name).startsWith("nightly cims-create-"));
const posts = (env: Emulated) => writes(env).filter((w) => w.startsWith("POST "));

/** A policy someone else's request made, as the service keeps it. */
const seeded = (id: number, name: string) => ({
  id,
  name,
  action: "volume_snapshot",
  status: "active",
  project_id: 1,
  region_id: 1,
  user_id: 7,
  schedules: [],
  volumes: [],
});

async function seed(env: Emulated, ...records: ReturnType<typeof seeded>[]): Promise<void> {
  expect((await api(env, "POST", "/__emulator/seed", { lifecycle_policies: records })).status).toBe(204);
}

function progressLines(): string[] {
  const lines: string[] = [];
  setLogSink((line) => void lines.push(line));
  return lines;
}

const LOST = [
  { lost: "a gateway answers 502 after the service acted", fault: { action: "status-after", status: 502, proxy: true } },
  { lost: "the connection is reset after the service acted", fault: { action: "close-after" } },
  { lost: "the answer is slower than the request timeout", fault: { action: "delay", delayMs: 4000 } },
] as const;

describe.each(["dynamic", "native"] as const)("SnapshotPolicy create whose answer is lost, in process, %s face", (face) => {
  test.each(LOST)(
    "$lost: the policy carrying the create's mark is found and recorded once, its name set; others of the name are not taken",
    ({ lost, fault }) =>
      withEmulatedState(
        "SnapshotPolicy",
        face,
        async (env, state) => {
          // Another team's policy of the same name, and one another resource's lost create left: neither is this create's.
          const otherMark = markOf("urn:pulumi:test::faults::cims:index:SnapshotPolicy::other");
          await seed(env, seeded(201, "nightly"), seeded(202, `nightly ${otherMark}`));
          const before = structuredClone(policies(env));
          expect((await api(env, "POST", "/__emulator/faults", { method: "POST", path: POLICIES, count: 1, ...fault })).status).toBe(204);
          env.emulator.metrics.reset();
          const lines = progressLines();
          await state.up("p", program);
          const made = policies(env).filter((p) => !before.some((b) => b.id === p.id));
          expect(made).toHaveLength(1);
          expect(state.ids()).toEqual([String(made[0].id)]);
          expect(made[0].name).toBe("nightly");
          // The POST was not repeated: one policy made (a reset answer is counted by no status).
          if (lost.startsWith("a gateway")) expect(posts(env)).toEqual([`POST ${POLICY_ROUTE} 502 x1`]);
          expect(lines.join("\n")).toContain(
            `SnapshotPolicy "nightly": the answer to its create was lost; snapshot policy ${String(made[0].id)} carries the create's mark: recorded`,
          );
          expect(policies(env).filter((p) => before.some((b) => b.id === p.id))).toEqual(before);
          expect(await state.changes("p", program)).toBe(false);
        },
        lost.startsWith("the answer is slower") ? { "cims:requestTimeoutSeconds": "1" } : {},
      ),
    ROW_TIMEOUT_MS,
  );

  test(
    "a reset before the service acted: the create fails saying the policy may exist and how it would be named; nothing recorded, and the next up makes it",
    () =>
      withEmulatedState("SnapshotPolicy", face, async (env, state) => {
        expect((await api(env, "POST", "/__emulator/faults", { method: "POST", path: POLICIES, count: 1, action: "close" })).status).toBe(
          204,
        );
        const failure = await state.up("p", program).then(() => undefined, failureOf);
        expect(failure?.message).toContain('The service may have created SnapshotPolicy "nightly"; it is not in the stack.');
        expect(failure?.message).toMatch(/it would be named "nightly cims-create-[0-9a-f]{12}(-[0-9a-f]{12})?"/);
        expect(failure?.id).toBeUndefined();
        expect(state.ids()).toEqual([]);
        expect(named(env)).toEqual([]);
        await state.up("p", program);
        expect(named(env).map((p) => p.name)).toEqual(["nightly"]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "the PATCH that sets the name fails: recorded partly created, the schedules its POST made the stack's, and the next up sets the name (its diff shows the marked name)",
    () =>
      withEmulatedState("SnapshotPolicy", face, async (env, state) => {
        const rule = { method: "PATCH", path: `${POLICIES}/*`, count: 1, action: "status", status: 400, body: { message: "refused" } };
        expect((await api(env, "POST", "/__emulator/faults", rule)).status).toBe(204);
        const failure = await state.up("p", program).then(() => undefined, failureOf);
        expect(failure?.message).toContain("but setting its name failed, so its name still carries the create mark");
        expect(failure?.id).toBeDefined();
        expect(state.ids()).toEqual([failure?.id]);
        expect(String(named(env)[0].name)).toMatch(/^nightly cims-create-[0-9a-f]{12}/);
        env.emulator.metrics.reset();
        await state.up("p", program);
        expect(writes(env)).toEqual([`PATCH ${POLICY_ROUTE}/:policy_id 200 x1`]);
        const [made] = named(env);
        expect([String(made.id), made.name]).toEqual([failure?.id, "nightly"]);
        // The schedule its POST made is the stack's (by its id), so a change of it removes that one, not another's.
        const schedules = made.schedules as Array<{ id: string }>;
        expect(Object.values(state.resources.get("p")!.outs.__scheduleIds as object)).toEqual(schedules.map((s) => s.id));
        expect(await state.changes("p", program)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a name of 63 characters: the marked name the POST sends keeps to the vendor's name rule, and the next up sets the whole name",
    () =>
      withEmulatedState("SnapshotPolicy", face, async (env, state) => {
        const long = { ...program, name: `nightly-${"x".repeat(54)}z` };
        expect(long.name).toHaveLength(63);
        // The PATCH that sets the name fails, so the service keeps the name the POST sent.
        const rule = { method: "PATCH", path: `${POLICIES}/*`, count: 1, action: "status", status: 400, body: { message: "refused" } };
        expect((await api(env, "POST", "/__emulator/faults", rule)).status).toBe(204);
        await state.up("p", long).catch(() => undefined);
        const [sent] = policies(env).filter((p) => String(p.name).startsWith("nightly-x"));
        // The vendor's Terraform provider's rule for a policy's name.
        expect(String(sent.name)).toMatch(/^[a-zA-Z0-9][a-zA-Z 0-9._-]{1,61}[a-zA-Z0-9._]$/);
        expect(String(sent.name)).toMatch(/ cims-create-[0-9a-f]{12}(-[0-9a-f]{12})?$/);
        await state.up("p", long);
        expect(
          policies(env)
            .filter((p) => String(p.name).startsWith("nightly-x"))
            .map((p) => p.name),
        ).toEqual([long.name]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "the scope's policies cannot be listed: the preview goes on, and the create stops before its POST, writing nothing",
    () =>
      withEmulatedState("SnapshotPolicy", face, async (env, state) => {
        const rule = { method: "GET", path: POLICIES, action: "status", status: 500 };
        expect((await api(env, "POST", "/__emulator/faults", rule)).status).toBe(204);
        expect(await state.changes("p", program)).toBe(true);
        const failure = await state.up("p", program).then(() => undefined, failureOf);
        expect(failure?.message).toContain(
          "could not list the scope's snapshot policies to look for one a lost create left, so nothing was created",
        );
        expect(failure?.message).toContain(`GET ${POLICIES}`);
        expect(failure?.message).toContain("Run `pulumi up` again once the service answers");
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a policy a lost create left whose mark names no resource stops the preview and the create, naming it and how to adopt it, with no write",
    () =>
      withEmulatedState("SnapshotPolicy", face, async (env, state) => {
        await seed(env, seeded(301, `nightly ${markOf()}`));
        env.emulator.metrics.reset();
        for (const attempt of [state.changes("p", program), state.up("p", program)]) {
          const failure = await attempt.then(() => undefined, failureOf);
          expect(failure?.message).toContain('name: snapshot policy 301 is named "nightly" with a create mark');
          expect(failure?.message).toContain("adopt it by setting `importId: 301`");
        }
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );
});

test(
  "plugin face: a policy whose mark names this resource, left by its lost create, is taken by the next create with no second POST, its name set",
  () =>
    withEmulatedState("SnapshotPolicy", "native", async (env, state) => {
      await seed(env, { ...seeded(401, `nightly ${markOf(urnOf("SnapshotPolicy"))}`), schedules: [] });
      env.emulator.metrics.reset();
      await state.up("p", { name: "nightly" });
      expect(state.ids()).toEqual(["401"]);
      expect(posts(env)).toEqual([]);
      expect(named(env).map((p) => [p.id, p.name])).toEqual([[401, "nightly"]]);
      expect(await state.changes("p", { name: "nightly" })).toBe(false);
    }),
  ROW_TIMEOUT_MS,
);
