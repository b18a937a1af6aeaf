// The large stack on the S3 backend (`--only s3-scale`): the checkpoint model, bytes =
// (writes a step x K + fixed writes) x stored bytes a resource x N (halved while creating),
// fitted by least squares; and each row's verdict, judged against the floor or, where the
// emulator's rate limit binds, against the least the command could take.
import { fitCheckpoints, predictUpload, type S3ScaleRow, s3ScaleMarkdown, s3Verdict } from "../../../bench/report";

const PER_RESOURCE = 120; // stored (gzipped) bytes a Subnet adds to the checkpoint
const upload = (op: "up" | "change", count: number, changes: number, perStep: number, fixed: number, noise = 1) => ({
  op,
  count,
  changes,
  largestPut: PER_RESOURCE * count,
  bytesPut: noise * (perStep * changes + fixed) * PER_RESOURCE * count * (op === "up" ? 0.5 : 1),
});

test("uploads made by the model give its parameters back, and predict a stack of 2,000", () => {
  const fit = fitCheckpoints([upload("up", 200, 200, 2, 3), upload("change", 200, 10, 2, 3), upload("up", 2000, 2000, 2, 3)])!;
  expect(fit.perResource).toBeCloseTo(PER_RESOURCE, 6);
  expect(fit.perStep).toBeCloseTo(2, 6);
  expect(fit.fixed).toBeCloseTo(3, 4);
  expect(fit.worstRelError).toBeLessThan(1e-9);
  // A change of 10 in 2,000: 23 writes of the whole checkpoint, 240 KB each.
  expect(predictUpload(fit, { op: "change", count: 2000, changes: 10 })).toBeCloseTo(23 * 240_000, 0);
});

test("a fit of noisy uploads says how far it is off; fewer than two writing rows give no model", () => {
  const fit = fitCheckpoints([upload("up", 200, 200, 2, 3, 1.1), upload("change", 200, 10, 2, 3), upload("up", 1000, 1000, 2, 3, 0.9)])!;
  expect(fit.worstRelError).toBeGreaterThan(0.01);
  expect(fit.worstRelError).toBeLessThan(0.2);
  expect(fitCheckpoints([upload("up", 200, 200, 2, 3)])).toBeUndefined();
  expect(fitCheckpoints([{ ...upload("up", 200, 200, 2, 3), op: "preview" }, upload("change", 200, 10, 2, 3)])).toBeUndefined();
});

const s3 = { requests: 40, puts: 20, bytesPut: 1e6, largestPut: 50_000 };
const row = (over: Partial<S3ScaleRow>): S3ScaleRow => ({
  op: "preview",
  count: 200,
  changes: 0,
  ms: 10_000,
  floorMs: 10_000,
  requests: 1,
  refused: 0,
  lists: 0,
  scopes: 1,
  s3,
  floorS3: s3,
  failed: 0,
  ok: true,
  ...over,
});

test("where the limit binds, an up is judged against the floor's start and finish plus the limit's time", () => {
  // 710 accepted requests at 10 a second: 70 s of limit, where the floor's work took 8 s of its 20.
  const up = row({ op: "up", changes: 200, ms: 85_000, floorMs: 20_000, floorWorkMs: 8_000, requests: 720, refused: 10 });
  expect(s3Verdict(up, 10)).toEqual({ ratio: 85_000 / 82_000, met: true });
  expect(s3Verdict({ ...up, ms: 100_000 }, 10).met).toBe(false);
  // Without the limit binding (few requests), the floor itself.
  expect(s3Verdict(row({ op: "change", changes: 10, ms: 12_000, floorMs: 10_000, floorWorkMs: 4_000, requests: 40 }), 10)).toEqual({
    ratio: 1.2,
    met: false,
  });
});

test("a change that uploads over 3 MB, a drift check of more than 2 lists a scope, or a failed resource is not met", () => {
  expect(s3Verdict(row({ op: "change", changes: 10, floorWorkMs: 2_000, s3: { ...s3, bytesPut: 3.1e6 } }), 10).met).toBe(false);
  expect(s3Verdict(row({ op: "change", changes: 10, floorWorkMs: 2_000, s3: { ...s3, bytesPut: 2.9e6 } }), 10).met).toBe(true);
  expect(s3Verdict(row({ op: "drift", lists: 3 }), 10).met).toBe(false);
  expect(s3Verdict(row({ op: "drift", lists: 2 }), 10).met).toBe(true);
  expect(s3Verdict(row({ failed: 1 }), 10).met).toBe(false);
});

test("the table shows every row, the memory pairs and the fitted model, with no NaN", () => {
  const md = s3ScaleMarkdown({
    taskMs: 2000,
    parallel: 64,
    rateLimit: 10,
    gzip: true,
    rows: [
      row({ op: "up", changes: 200, floorWorkMs: 8_000, s3: { ...s3, ...upload("up", 200, 200, 2, 3) } }),
      row({}),
      row({ op: "drift", lists: 1 }),
      row({ op: "change", changes: 10, floorWorkMs: 2_000, s3: { ...s3, ...upload("change", 200, 10, 2, 3) } }),
    ],
    memory: [{ count: 50, cims: 160 * 2 ** 20, floor: 140 * 2 ** 20 }],
  }).join("\n");
  expect(md.match(/^\| 200 \|/gm)).toHaveLength(4);
  expect(md).toContain("ours 160 MB, the floor's 140 MB, 1.14x (target <= 1.2x: met)");
  expect(md).toContain("| side | stored bytes / resource |");
  expect(md).not.toMatch(/NaN|undefined|Infinity/);
});
