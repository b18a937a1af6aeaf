// `--only parallel`: `pulumi up` of N Subnets at several engine parallelisms (`--parallel P`),
// against the floor at the same P, with the emulator unlimited; then ours again under the
// emulator's rate limit, where the time the limit itself imposes (requests / rate) is the
// yardstick. Each row records wall time, requests per subnet, 429 answers and failures.
import type { RunningEmulator } from "pulumi-cims/emulator";
import type { TestStack } from "../tests/support/harness";
import { timed } from "./stack-runs";

export interface ParallelRow {
  count: number;
  parallel: number;
  /** Requests a second per key the emulator allowed; null: unlimited. */
  rateLimit: number | null;
  upMs: number;
  /** The floor's up at the same P (unlimited rows only: the floor sends no request). */
  floorUpMs?: number;
  requestsPerSubnet: number;
  taskRequestsPerSubnet: number;
  refused: number;
  /** Resources the up failed (0 is the target everywhere). */
  failed: number;
  ok: boolean;
}

export async function parallelExperiment(opts: {
  emulator: RunningEmulator;
  runs: Array<{ count: number; parallel: number[] }>;
  rateLimit: number;
  stack: (mode: "cims" | "floor", count: number) => Promise<TestStack>;
  clear: (stack: TestStack) => Promise<void>;
  log: (line: string) => void;
}): Promise<ParallelRow[]> {
  const rows: ParallelRow[] = [];
  const { emulator } = opts;
  for (const { count, parallel } of opts.runs) {
    const ours = await opts.stack("cims", count);
    const floor = await opts.stack("floor", count);
    for (const rateLimit of [null, opts.rateLimit]) {
      for (const p of parallel) {
        const args = ["--parallel", String(p)];
        let floorUpMs: number | undefined;
        if (rateLimit === null) {
          floorUpMs = await timed(() => floor.up(args, LONG));
          await opts.clear(floor);
        }
        emulator.faults.setRateLimit(rateLimit); // a fresh, full bucket
        emulator.metrics.reset();
        let result = { code: 0 as number | null, stdout: "" };
        const upMs = await timed(async () => (result = await ours.up(args, { ...LONG, allowFailure: true })));
        emulator.faults.setRateLimit(null);
        const m = emulator.metrics.snapshot();
        const sum = (re: RegExp) =>
          Object.entries(m.requests)
            .filter(([k]) => re.test(k))
            .reduce((n, [, c]) => n + c, 0);
        const failed = new Set([...result.stdout.matchAll(/cims:Subnet \(s(\d+)\):\s*\n\s*error/g)].map((x) => x[1])).size;
        const row: ParallelRow = {
          count,
          parallel: p,
          rateLimit,
          upMs,
          floorUpMs,
          requestsPerSubnet: m.total_requests / count,
          taskRequestsPerSubnet: sum(/^GET \/cloud\/v1\/tasks(\/:task_id)? /) / count,
          refused: sum(/ 429$/),
          failed,
          ok: result.code === 0,
        };
        rows.push(row);
        opts.log(
          `parallel ${count} subnets, P=${p}, ${rateLimit === null ? "no limit" : `${rateLimit}/s`}: up ${(upMs / 1000).toFixed(1)} s` +
            `${floorUpMs !== undefined ? ` (floor ${(floorUpMs / 1000).toFixed(1)} s)` : ""}, ${row.requestsPerSubnet.toFixed(1)} requests ` +
            `and ${row.taskRequestsPerSubnet.toFixed(2)} task requests a subnet, ${row.refused} x 429, exit ${String(result.code)}`,
        );
        await opts.clear(ours);
      }
    }
  }
  return rows;
}

const LONG = { timeoutMs: 30 * 60_000 };

/** Ours against the floor without a limit; against requests / rate under one. */
export function parallelMarkdown(rows: ParallelRow[]): string[] {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const lines = [
    "",
    "Unlimited: ours / floor at the same `--parallel` (target <= 1.10x). Under the rate limit: wall time against what",
    "bounds it, the time the limit itself imposes (requests / rate) or, where the engine's parallelism is the",
    "tighter bound, our unlimited up at the same `--parallel` (target <= 1.2x). Target everywhere: no resource failed.",
    "",
    "| subnets | --parallel | limit | up (s) | floor (s) | ratio | limit's time (s) | bound (s) | ratio | requests / subnet | task requests / subnet | 429s | failed |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    const imposed = r.rateLimit === null ? undefined : (r.requestsPerSubnet * r.count * 1000) / r.rateLimit;
    const unlimited = rows.find((u) => u.rateLimit === null && u.count === r.count && u.parallel === r.parallel);
    const bound = imposed === undefined ? undefined : Math.max(imposed, unlimited?.upMs ?? 0);
    lines.push(
      [
        r.count,
        r.parallel,
        r.rateLimit === null ? "none" : `${r.rateLimit}/s`,
        s(r.upMs),
        r.floorUpMs === undefined ? "" : s(r.floorUpMs),
        r.floorUpMs === undefined ? "" : `${(r.upMs / r.floorUpMs).toFixed(2)}x`,
        imposed === undefined ? "" : s(imposed),
        bound === undefined ? "" : s(bound),
        bound === undefined ? "" : `${(r.upMs / bound).toFixed(2)}x`,
        r.requestsPerSubnet.toFixed(1),
        r.taskRequestsPerSubnet.toFixed(2),
        r.refused,
        `${r.failed}${r.ok ? "" : " (exit non-zero)"}`,
      ]
        .join(" | ")
        .replace(/^/, "| ")
        .concat(" |"),
    );
  }
  return lines;
}
