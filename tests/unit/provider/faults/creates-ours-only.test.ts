// A create takes only what it made, in process (the provider as the engine calls it, against
// the emulator, on both faces): a POST whose answer was lost after the service acted (a
// gateway's 502, a dropped connection) finds the record carrying its create's mark, records
// it once and removes the mark; two creates of one program with the same name and volume
// each take their own; an image POST answered by a gateway's 503 page is not repeated, and
// the error says how to find the image. Another team's records taken by neither, under the
// real engine: tests/e2e/failures/creates-ours-only.test.ts.
import { setLogSink } from "../../../../provider/methods/context";
import { CREATE_MARK_TAG } from "../../../../provider/methods/mark";
import { api, SEED } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { failureOf } from "./faces";
import { withEmulatedState } from "./matrix";

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
});
