// `--only parallel`: N Subnets at several engine parallelisms (`--parallel P`).
// - Without a rate limit: `pulumi up` of ours (dynamic face) against the floor at the same P.
// - Under the emulator's rate limit: `pulumi up`, `refresh` and `destroy` on both faces, where
//   the time the limit itself imposes (requests / rate) is the yardstick.
// Each row records wall time, when the first and the last request of the command reached the
// service (the rest is the engine's start and finish, which no pacing changes), requests per
// subnet, 429 answers and failures.
import type { RunningEmulator } from "pulumi-cims/emulator";
import type { TestStack } from "../../tests/support/harness";
import { timed } from "../stack-runs";

export type ParallelFace = "dynamic" | "plugin";
export type ParallelOp = "up" | "refresh" | "destroy";

export interface ParallelRow {
  count: number;
  parallel: number;
  face: ParallelFace;
  op: ParallelOp;
  /** Requests a second per key the emulator allowed; null: unlimited. */
  rateLimit: number | null;
  ms: number;
  /** The floor's up at the same P (unlimited rows only: the floor sends no request). */
  floorMs?: number;
  /** From the command's start to its first request, and from its last request to its end. */
  beforeFirstMs: number;
  afterLastMs: number;
  requests: number;
  taskRequests: number;
  refused: number;
  /** Resources the command failed (0 is the target everywhere). */
  failed: number;
  ok: boolean;
}

/** When requests reached the emulator (its log hook), for a command's first and last. */
export interface RequestTimes {
  first: number | undefined;
  last: number | undefined;
}

export async function parallelExperiment(opts: {
  emulator: RunningEmulator;
  /** Set to undefined before each command; the emulator's log hook fills it. */
  seen: RequestTimes;
  runs: Array<{ count: number; parallel: number[] }>;
  rateLimit: number;
  stack: (mode: "cims" | "plugin" | "floor", count: number) => Promise<TestStack>;
  clear: (stack: TestStack) => Promise<void>;
  log: (line: string) => void;
}): Promise<ParallelRow[]> {
  const rows: ParallelRow[] = [];
  const { emulator, seen } = opts;
  const measure = async (
    s: TestStack,
    what: Omit<ParallelRow, "ms" | "beforeFirstMs" | "afterLastMs" | "requests" | "taskRequests" | "refused" | "failed" | "ok">,
    floorMs?: number,
  ) => {
    const args = ["--parallel", String(what.parallel)];
    emulator.faults.setRateLimit(what.rateLimit); // a fresh, full bucket
    emulator.metrics.reset();
    seen.first = seen.last = undefined;
    let result = { code: 0 as number | null, stdout: "" };
    const started = Date.now();
    const run = { up: () => s.up(args, FAILING), refresh: () => s.refresh(args, FAILING), destroy: () => s.destroy(args, FAILING) }[
      what.op
    ];
    const ms = await timed(async () => (result = await run()));
    emulator.faults.setRateLimit(null);
    const m = emulator.metrics.snapshot();
    const row: ParallelRow = {
      ...what,
      ms,
      floorMs,
      beforeFirstMs: (seen.first ?? started) - started,
      afterLastMs: started + ms - (seen.last ?? started + ms),
      requests: m.total_requests,
      taskRequests: sum(m.requests, /^GET \/cloud\/v1\/tasks(\/:task_id)? /),
      refused: sum(m.requests, / 429$/),
      failed: new Set([...result.stdout.matchAll(/Subnet \(s(\d+)\):\s*\n\s*error/g)].map((x) => x[1])).size,
      ok: result.code === 0,
    };
    rows.push(row);
    opts.log(`${describe(row)}\n  requests: ${breakdown(m.requests)}`);
    return row;
  };
  for (const { count, parallel } of opts.runs) {
    const dynamic = await opts.stack("cims", count);
    const plugin = await opts.stack("plugin", count);
    const floor = await opts.stack("floor", count);
    for (const p of parallel) {
      const floorMs = await timed(() => floor.up(["--parallel", String(p)], LONG));
      await opts.clear(floor);
      await measure(dynamic, { count, parallel: p, face: "dynamic", op: "up", rateLimit: null }, floorMs);
      await opts.clear(dynamic);
    }
    for (const p of parallel) {
      for (const [face, s] of [
        ["dynamic", dynamic],
        ["plugin", plugin],
      ] as const) {
        for (const op of ["up", "refresh", "destroy"] as const) {
          await measure(s, { count, parallel: p, face, op, rateLimit: opts.rateLimit });
        }
      }
    }
  }
  return rows;
}

const LONG = { timeoutMs: 30 * 60_000 };
const FAILING = { ...LONG, allowFailure: true };

const sum = (requests: Record<string, number>, re: RegExp) =>
  Object.entries(requests)
    .filter(([k]) => re.test(k))
    .reduce((n, [, c]) => n + c, 0);

/** "GET /cloud/v1/subnets/:project_id/:region_id 200: 51, ..." most first, for the log. */
export function breakdown(requests: Record<string, number>): string {
  return Object.entries(requests)
    .sort(([, a], [, b]) => b - a)
    .map(([route, n]) => `${route}: ${n}`)
    .join(", ");
}

const s = (ms: number) => (ms / 1000).toFixed(1);

/**
 * The time the limit itself imposes on a row: the requests it accepted at the rate, less the
 * one second's burst its bucket starts with (a 429 costs the service nothing and is not counted).
 */
const imposedMs = (r: ParallelRow) => (r.rateLimit === null ? 0 : (Math.max(0, r.requests - r.refused - r.rateLimit) * 1000) / r.rateLimit);

function describe(r: ParallelRow): string {
  const limit = r.rateLimit === null ? "no limit" : `${r.rateLimit}/s`;
  return (
    `parallel ${r.count} subnets, P=${r.parallel}, ${r.face} ${r.op}, ${limit}: ${s(r.ms)} s` +
    `${r.floorMs !== undefined ? ` (floor ${s(r.floorMs)} s)` : ""}, requests from ${s(r.beforeFirstMs)} s to ${s(r.ms - r.afterLastMs)} s, ` +
    `${(r.requests / r.count).toFixed(1)} requests and ${(r.taskRequests / r.count).toFixed(2)} task requests a subnet, ` +
    `${r.refused} x 429, ${r.failed} failed, exit ${r.ok ? 0 : "non-zero"}`
  );
}

/**
 * The wall-time model of an `up` of N resources at parallelism P whose tasks take T:
 * `start + ceil(N / P) * (T + lag) + N * perResource`, fitted by least squares to the rows
 * without a limit (each side's own up). Its largest error says how far the model holds.
 */
export interface WallModel {
  startMs: number;
  /** T + lag: the time a slot holds a resource beyond the engine's own cost. */
  waveMs: number;
  perResourceMs: number;
  worstErrorMs: number;
}

export function fitWallModel(points: Array<{ count: number; parallel: number; ms: number }>): WallModel | undefined {
  if (points.length < 3) return undefined;
  const x = points.map((p) => [1, Math.ceil(p.count / p.parallel), p.count]);
  const y = points.map((p) => p.ms);
  // Normal equations (X'X) b = X'y, three unknowns, solved by elimination.
  const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => x.reduce((s, r) => s + r[i] * r[j], 0)));
  const b = [0, 1, 2].map((i) => x.reduce((s, r, k) => s + r[i] * y[k], 0));
  const solved = solve3(a, b);
  if (!solved) return undefined;
  const [startMs, waveMs, perResourceMs] = solved;
  const worstErrorMs = Math.max(...x.map((r, k) => Math.abs(startMs + waveMs * r[1] + perResourceMs * r[2] - y[k])));
  return { startMs, waveMs, perResourceMs, worstErrorMs };
}

/** Gaussian elimination with partial pivoting; undefined when the points do not pin the model down. */
function solve3(a: number[][], b: number[]): number[] | undefined {
  const m = a.map((row, i) => [...row, b[i]]);
  for (let col = 0; col < 3; col++) {
    const pivot = m.slice(col).reduce((best, row, i) => (Math.abs(row[col]) > Math.abs(m[best][col]) ? col + i : best), col);
    if (Math.abs(m[pivot][col]) < 1e-9) return undefined;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c < 4; c++) m[r][c] -= f * m[col][c];
    }
  }
  return [0, 1, 2].map((i) => m[i][3] / m[i][i]);
}

/** The model's lines for the report: ours and the floor, with the lag as the wave's time beyond T. */
function modelMarkdown(rows: ParallelRow[], taskMs: number | undefined): string[] {
  const unlimited = rows.filter((r) => r.rateLimit === null);
  const ours = fitWallModel(unlimited);
  const floor = fitWallModel(unlimited.map((r) => ({ ...r, ms: r.floorMs ?? r.ms })));
  if (!ours || !floor) return [];
  const said = (name: string, m: WallModel) =>
    `| ${name} | ${s(m.startMs)} | ${(m.waveMs / 1000).toFixed(2)}${taskMs === undefined ? "" : ` (lag ${((m.waveMs - taskMs) / 1000).toFixed(2)})`} | ${m.perResourceMs.toFixed(0)} | ${s(m.worstErrorMs)} |`;
  return [
    "",
    "The wall time of an `up` of N resources at `--parallel` P, `start + ceil(N / P) * (T + lag) + N * engine cost`, fitted",
    `to the rows above (least squares; T = ${taskMs === undefined ? "the task's duration" : `${(taskMs / 1000).toFixed(1)} s`}):`,
    "",
    "| side | start (s) | a wave: T + lag (s) | engine cost per resource (ms) | largest error of the fit (s) |",
    "|---|---|---|---|---|",
    said("ours (dynamic face)", ours),
    said("floor", floor),
  ];
}

/** Ours against the floor without a limit; against what the limit imposes under one. */
export function parallelMarkdown(rows: ParallelRow[], taskMs?: number): string[] {
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  const unlimited = rows.filter((r) => r.rateLimit === null);
  const limited = rows.filter((r) => r.rateLimit !== null);
  const failed = (r: ParallelRow) => `${r.failed}${r.ok ? "" : " (exit non-zero)"}`;
  const lines = [
    "",
    "Without a rate limit: `pulumi up` of the dynamic face against the floor at the same `--parallel` (target <= 1.10x).",
    "",
    "| subnets | --parallel | up (s) | floor (s) | ours / floor | requests / subnet | task requests / subnet | failed |",
    "|---|---|---|---|---|---|---|---|",
    ...unlimited.map((r) =>
      row([
        r.count,
        r.parallel,
        s(r.ms),
        s(r.floorMs ?? 0),
        ratio(r.ms, r.floorMs ?? r.ms),
        (r.requests / r.count).toFixed(1),
        (r.taskRequests / r.count).toFixed(2),
        failed(r),
      ]),
    ),
    ...modelMarkdown(rows, taskMs),
    "",
    "Under the emulator's rate limit, both faces, `up`, `refresh` and `destroy` of the same stack. The limit's time is what",
    "the accepted requests cost at the rate (less the one second's burst the bucket starts with); the requests' window is from the",
    "first request to the last, the rest of the wall time being the engine's start and finish, which no pacing changes.",
    "Targets: no resource failed; wall time within 1.2x of the limit's time.",
    "",
    "| subnets | --parallel | face | command | wall (s) | requests' window (s) | limit's time (s) | wall / limit's time | window / limit's time | requests / subnet | task requests / subnet | 429s | failed |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...limited.map((r) => {
      const imposed = imposedMs(r);
      const window = r.ms - r.beforeFirstMs - r.afterLastMs;
      return row([
        r.count,
        r.parallel,
        r.face,
        r.op,
        s(r.ms),
        s(window),
        s(imposed),
        imposed > 0 ? ratio(r.ms, imposed) : "",
        imposed > 0 ? ratio(window, imposed) : "",
        (r.requests / r.count).toFixed(1),
        (r.taskRequests / r.count).toFixed(2),
        r.refused,
        failed(r),
      ]);
    }),
  ];
  return lines;
}

const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
