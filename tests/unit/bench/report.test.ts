// The parallel bench's wall-time model, start + ceil(N / P) * wave + N * perResource, fitted
// by least squares: exact points give back their parameters; noisy ones a bounded error.
import { fitWallModel, parallelMarkdown } from "../../../bench/report";

const runs = [
  [50, 8],
  [50, 16],
  [50, 64],
  [200, 8],
  [200, 16],
  [200, 64],
  [200, 200],
];
const at = (start: number, wave: number, per: number, noise: (i: number) => number = () => 0) =>
  runs.map(([count, parallel], i) => ({ count, parallel, ms: start + Math.ceil(count / parallel) * wave + count * per + noise(i) }));

test("points made by the model give its parameters back", () => {
  const m = fitWallModel(at(4_000, 2_300, 12))!;
  expect(m.startMs).toBeCloseTo(4_000, 3);
  expect(m.waveMs).toBeCloseTo(2_300, 3);
  expect(m.perResourceMs).toBeCloseTo(12, 3);
  expect(m.worstErrorMs).toBeLessThan(1e-6);
});

test("with noise, the largest error of the fit says so", () => {
  const m = fitWallModel(at(4_000, 2_300, 12, (i) => (i % 2 ? 500 : -500)))!;
  expect(m.worstErrorMs).toBeGreaterThan(100);
  expect(m.worstErrorMs).toBeLessThan(1_000);
});

test("too few points, or points that cannot tell the terms apart, give no model", () => {
  expect(fitWallModel(at(1, 1, 1).slice(0, 2))).toBeUndefined();
  expect(fitWallModel([50, 50, 50].map((count) => ({ count, parallel: 8, ms: 1_000 })))).toBeUndefined();
});

test("rows that measured the floor with a Subnet's data are judged against it; older rows against the bare floor", () => {
  const row = (floorLikeMs?: number) => ({
    count: 50,
    parallel: 64,
    face: "dynamic" as const,
    op: "up" as const,
    rateLimit: null,
    ms: 8_000,
    floorMs: 6_400,
    floorLikeMs,
    beforeFirstMs: 4_000,
    afterLastMs: 200,
    requests: 165,
    taskRequests: 63,
    refused: 0,
    failed: 0,
    ok: true,
  });
  const withData = parallelMarkdown([row(7_600)]).join("\n");
  expect(withData).toContain("| 50 | 64 | 8.0 | 6.4 | 7.6 | 1.25x | 1.05x |");
  expect(withData).toContain("Target: <= 1.10x of the floor with the data");
  expect(withData).not.toContain("median");
  const repeated = parallelMarkdown([{ ...row(7_600), rounds: 3 }]).join("\n");
  expect(repeated).toContain("the median of interleaved runs of ours and both floors: 50 subnets (3 runs).");
  const older = parallelMarkdown([row()]).join("\n");
  expect(older).toContain("| 50 | 64 | 8.0 | 6.4 | 1.25x | 3.3 |");
});

test("a limited row's least wall time is the engine's start plus the limit's time, or the task waves when longer", () => {
  const limited = (op: "up" | "destroy", parallel: number, requests: number, engine?: number, ownStart = 3_000) => ({
    count: 50,
    parallel,
    face: "dynamic" as const,
    op,
    rateLimit: 10,
    ms: 20_000,
    beforeFirstMs: ownStart,
    afterLastMs: 100,
    engineBeforeMs: engine,
    engineAfterMs: engine === undefined ? undefined : 4_000,
    requests,
    taskRequests: 90,
    refused: 0,
    failed: 0,
    ok: true,
  });
  const md = parallelMarkdown(
    [limited("up", 64, 160, 2_500), limited("destroy", 8, 110, 1_000), limited("up", 32, 160, 3_500, 2_000), limited("up", 16, 160)],
    2_000,
  ).join("\n");
  // 150 accepted requests past the burst at 10 a second: 15 s, above one wave of 2 s; the engine's 2.5 s before it.
  expect(md).toContain("| 50 | 64 | dynamic | up | 20.0 | 16.9 | 15.0 | 1.33x | 1.13x | 17.5 | 1.17x | 1.14x |");
  // 10 s of requests, but seven waves of 2 s tasks at P = 8: 1 + 14 s.
  expect(md).toContain("| 50 | 8 | dynamic | destroy | 20.0 | 16.9 | 10.0 | 2.00x | 1.69x | 15.0 | 1.50x | 1.33x |");
  // The row's own first request came before the floor's first work: its own start counts.
  expect(md).toContain("| 50 | 32 | dynamic | up | 20.0 | 17.9 | 15.0 | 1.33x | 1.19x | 17.0 | 1.13x | 1.18x |");
  // Not measured: no least.
  expect(md).toContain("| 50 | 16 | dynamic | up | 20.0 | 16.9 | 15.0 | 1.33x | 1.13x |  |  |  |");
});
