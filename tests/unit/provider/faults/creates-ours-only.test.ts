// A create takes only what it made, in process (the provider as the engine calls it, against
// the emulator, on both faces): a POST whose answer was lost after the service acted (a
// gateway's 502, a dropped connection) finds the record carrying its create's mark, records
// it once and removes the mark; two creates of one program with the same name and volume
// each take their own; an image POST answered by a gateway's 503 page is not repeated, and
// the error says how to find the image. Another team's records are never taken: a subnet
// holding the program's CIDR fails the preview and every up, naming it, with no write; and
// while the program's POSTs are answered 502 before the service acted, another team making a
// subnet and an image with the program's names, CIDR and volume keeps them, untouched. How
// the engine records a create that failed partway: tests/e2e/failures/orphans-create.test.ts.
import { setLogSink } from "../../../../provider/methods/context";
import { CREATE_MARK_TAG } from "../../../../provider/methods/mark";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { subnetRecord } from "../../../support/records";
import { failureOf } from "./faces";
import { stateOn, withEmulatedState } from "./matrix";

// A search for the create's mark after a lost answer: seconds.
const ROW_TIMEOUT_MS = 60_000;
const IMAGES = "/cloud/v1/bmimages/1/1";
const image = { name: "golden", volumeId: SEED.volumeId };
const subnet = { name: "team-a-db", cidr: "10.79.0.0/24", networkId: SEED.networkId };

const lostAnswers = (env: Emulated, path: string, count: number, status: number, action = "status-after") =>
  api(env, "POST", "/__emulator/faults", { method: "POST", path, count, action, status, proxy: true });
const posts = (env: Emulated) => Object.entries(env.emulator.metrics.snapshot().requests).filter(([k]) => k.startsWith("POST "));
const tagsIn = (env: Emulated, collection: "subnets" | "images") =>
  JSON.stringify(env.emulator.store.list(collection).map((r) => [r.tags, r.tags_v2]));

/** The progress lines the provider writes from here on (the engine shows them under the resource). */
function progressLines(): string[] {
  const lines: string[] = [];
  setLogSink((line) => void lines.push(line));
  return lines;
}

describe.each(["dynamic", "native"] as const)("creates take only their own, in process, %s face", (face) => {
  const SUBNETS = "/cloud/v1/subnets/1/1";
  test.each([
    { kind: "BaremetalImage", collection: "images", path: IMAGES, program: image, lost: "a gateway answers 502" },
    { kind: "Subnet", collection: "subnets", path: SUBNETS, program: subnet, lost: "a gateway answers 502" },
    { kind: "Subnet", collection: "subnets", path: SUBNETS, program: subnet, lost: "the connection drops" },
  ] as const)(
    "a $kind POST whose answer is lost after the service acted ($lost): the record it made is found by its mark and recorded, once, the mark removed",
    ({ kind, collection, path, program, lost }) =>
      withEmulatedState(kind, face, async (env, state) => {
        const gateway = lost === "a gateway answers 502";
        if (gateway) await lostAnswers(env, path, 1, 502);
        else await api(env, "POST", "/__emulator/faults", { method: "POST", path, count: 1, action: "close-after" });
        const lines = progressLines();
        await state.up(program.name, program);
        // One record: the POST was not repeated (the service may have acted, and had).
        const made = env.emulator.store.list(collection).map((r) => String(r.id));
        expect(made).toHaveLength(1);
        expect(state.ids()).toEqual(made);
        expect(lines.join("\n")).toContain(
          `${kind} "${program.name}": the answer to its create was lost; ${made[0]} carries the create's mark: recorded`,
        );
        if (gateway) expect(posts(env)).toEqual([[`POST ${path.replace("/1/1", "/:project_id/:region_id")} 502`, 1]]);
        expect(tagsIn(env, collection)).not.toContain(CREATE_MARK_TAG);
        expect(await state.changes(program.name, program)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "an image POST answered by a gateway's 503 page is not repeated (the service may have acted); the error says how to find the image",
    () =>
      withEmulatedState("BaremetalImage", face, async (env, state) => {
        await lostAnswers(env, IMAGES, 1, 503, "status");
        const failure = await state.up("golden", image).then(() => undefined, failureOf);
        expect(failure?.message).toContain("503 Service Unavailable");
        expect(failure?.message).toContain(
          `The service may have created BaremetalImage "golden"; it is not in the stack. GET ${IMAGES} lists the images: look for one named "golden" made from volume ${SEED.volumeId}. It would carry the tag ${CREATE_MARK_TAG}: `,
        );
        expect(failure?.message).toContain('importId: "<its id>"');
        expect(posts(env)).toEqual([["POST /cloud/v1/bmimages/:project_id/:region_id 503", 1]]);
        expect(failure?.id).toBeUndefined();
        expect(state.ids()).toEqual([]);
        // The service did not act this time: the next up makes it.
        await state.up("golden", image);
        expect(env.emulator.store.list("images")).toHaveLength(1);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "two images of one program with the same name and volume, both answers lost after the service acted: each records the image its own create made",
    () =>
      withEmulatedState("BaremetalImage", face, async (env, state) => {
        await lostAnswers(env, IMAGES, 2, 502);
        await Promise.all([state.up("golden-a", image), state.up("golden-b", image)]);
        const images = env.emulator.store.list("images").map((i) => String(i.id));
        expect(images).toHaveLength(2);
        expect(state.ids()).toEqual([...images].sort());
        expect(tagsIn(env, "images")).not.toContain(CREATE_MARK_TAG);
        for (const name of ["golden-a", "golden-b"]) expect(await state.changes(name, image)).toBe(false);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "another team's subnet with the program's CIDR: the preview and every up fail naming it, with no write, and it stays as it was",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        const theirs = subnetRecord({
          id: "7e8f9a0b-1c2d-4e3f-8a4b-5c6d7e8f9a0b",
          name: "team-b-db",
          cidr: "10.79.0.0/24",
          gateway_ip: "10.79.0.1",
          creator_task_id: "6d7e8f9a-0b1c-4d2e-9f3a-4b5c6d7e8f9a",
          tags: { owner: "team-b" },
        });
        expect((await api(env, "POST", "/__emulator/seed", { subnets: [theirs] })).status).toBe(204);
        const held = structuredClone(env.emulator.store.list("subnets"));
        env.emulator.metrics.reset();
        const named = `cidr: 10.79.0.0/24 overlaps subnet "team-b-db" (${String(theirs.id)}, 10.79.0.0/24) on network ${SEED.networkId}`;
        const preview = await state.changes(subnet.name, subnet).then(() => undefined, failureOf);
        expect(preview?.message).toContain(named);
        expect(preview?.message).toContain(`importId: "${String(theirs.id)}"`);
        for (let i = 0; i < 2; i++)
          expect((await state.up(subnet.name, subnet).then(() => undefined, failureOf))?.message).toContain(named);
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
        expect(env.emulator.store.list("subnets")).toEqual(held);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "answers lost before the service acted while another team makes a subnet and an image with the program's name, CIDR and volume: neither is taken",
    () =>
      withEmulatedState("Subnet", face, async (env, subnets) => {
        const images = await stateOn(face, "BaremetalImage", env);
        // The gateway answers the program's POSTs 502 (the service never saw them), 1.5 s late;
        // meanwhile team-b creates the same subnet and image, whose tasks run for 6 s: they are
        // listed while the provider looks for what its create may have made.
        expect((await api(env, "PUT", "/__emulator/task-duration", { ms: 6000 })).status).toBe(204);
        const race = async (state: typeof subnets, path: string, program: { name: string }, body: object) => {
          const fault = { method: "POST", path, count: 1, action: "status", status: 502, proxy: true, delayMs: 1500 };
          expect((await api(env, "POST", "/__emulator/faults", fault)).status).toBe(204);
          const running = state.up(program.name, program).then(() => undefined, failureOf);
          // team-b's POST goes once the program's has arrived (its fault is used up), before its answer.
          while (env.emulator.faults.requestFaults.some((f) => f.path === path)) await new Promise((r) => setTimeout(r, 10));
          expect((await api(env, "POST", path, body)).status).toBe(200);
          return running;
        };
        const failures = [
          await race(subnets, "/cloud/v1/subnets/1/1", subnet, { name: subnet.name, cidr: subnet.cidr, network_id: SEED.networkId }),
          await race(images, IMAGES, image, { name: image.name, volume_id: SEED.volumeId }),
        ];
        for (const [failure, what] of [
          [failures[0], `Subnet "${subnet.name}"`],
          [failures[1], `BaremetalImage "${image.name}"`],
        ] as const) {
          expect(failure?.message).toContain(`The service may have created ${what}; it is not in the stack.`);
          expect(failure?.message).toMatch(new RegExp(`It would carry the tag ${CREATE_MARK_TAG}: [0-9a-f-]{36}`));
          expect(failure?.id).toBeUndefined();
        }
        expect([...subnets.ids(), ...images.ids()]).toEqual([]);
        // team-b's records, once made, are theirs alone: untouched by the failed creates.
        const theirs = [...env.emulator.store.list("subnets"), ...env.emulator.store.list("images")];
        expect(theirs.map((r) => r.name).sort()).toEqual(["golden", "team-a-db"]);
        expect(writes(env).filter((w) => !w.startsWith("POST "))).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );
});
