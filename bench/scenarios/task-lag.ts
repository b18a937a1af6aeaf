// Task-wait lag: tasks of a given duration on the emulator, each watched at once by four
// waiters: ours (adaptive schedule) with nothing learned, ours with the duration hints of
// earlier tasks of the same type (a warm-up task, then the samples themselves, as in a stack
// of alike resources), fixed 1 s polling (an old SDK) and fixed 3 s polling (the public SDKs). For each waiter: how long after the emulator marked the task FINISHED
// it returned, and how many task GETs it made. Same process, same clock, same tasks; each
// task lasts its nominal duration +/-10%.
import { setTimeout as sleep } from "node:timers/promises";
import type { RunningEmulator } from "pulumi-cims/emulator";
import { CimsClient, DurationHints, waitForTasks, type Task } from "../../provider/client";
import { median } from "../chart";
import { type BenchContext, NETWORK_ID } from "../context";
import type { LagRow, Waiter } from "../report";

export interface LagSample {
  durationMs: number;
  waiter: Waiter;
  lagMs: number;
  gets: number;
}

const TASK_PATH = "/cloud/v1/tasks/{task_id}";

/** Fixed-interval polling as the service's SDKs do it: GET, and if not done, sleep. */
async function pollFixed(get: (id: string) => Promise<Task>, id: string, intervalMs: number): Promise<void> {
  for (;;) {
    const task = await get(id);
    if (task.state === "FINISHED" || task.state === "ERROR") return;
    await sleep(intervalMs);
  }
}

export async function measureTaskLag(
  emulator: RunningEmulator,
  apiKey: string,
  networkId: string,
  durationsMs: number[],
  samplesPerDuration: number,
): Promise<LagSample[]> {
  const client = new CimsClient({
    apiUrl: new URL(emulator.url),
    apiKey,
    maxRetries: 3,
    connectTimeoutMs: 5000,
    requestTimeoutMs: 120_000,
    taskPath: TASK_PATH,
  });
  let subnet = 0;
  // Tasks are created one at a time (the emulator has one duration setting), each lasting the
  // nominal duration +/-10%: exact whole seconds would line up with fixed 1 s polling by luck.
  let creating: Promise<unknown> = Promise.resolve();
  const createTask = (durationMs: number): Promise<string> => {
    const created = creating.then(async () => {
      emulator.engine.durationMs = Math.round(durationMs * (0.9 + 0.2 * Math.random()));
      const cidr = `10.${200 + Math.floor(subnet / 256)}.${subnet++ % 256}.0/24`;
      const tasks = await client.taskIds("POST", "/cloud/v1/subnets/1/1", {
        body: { name: `lag-${subnet}`, cidr, network_id: networkId },
      });
      return tasks[0];
    });
    creating = created.catch(() => undefined);
    return created;
  };
  const one = async (durationMs: number, shared: DurationHints): Promise<LagSample[]> => {
    const id = await createTask(durationMs);
    const counted = () => {
      const gets = { n: 0 };
      const get = (taskId: string) => {
        gets.n++;
        return client.task(taskId);
      };
      return { gets, get };
    };
    const run = async (waiter: Waiter): Promise<LagSample> => {
      const { gets, get } = counted();
      if (waiter === "adaptive" || waiter === "hints") {
        // adaptive: our schedule alone, nothing learned; hints: what this duration's earlier
        // tasks taught (shared across its samples, after a warm-up task).
        const hints = waiter === "hints" ? shared : new DurationHints();
        await waitForTasks((taskId) => get(taskId), [id], { deadline: Date.now() + 600_000, timeoutSeconds: 600, hints });
      } else {
        await pollFixed(get, id, waiter === "fixed1s" ? 1000 : 3000);
      }
      const returnedAt = Date.now();
      const finishedAt = emulator.engine.metrics().find((m) => m.id === id)?.finished_at;
      if (finishedAt === undefined) throw new Error(`task ${id} has no finish time`);
      return { durationMs, waiter, lagMs: returnedAt - finishedAt, gets: gets.n };
    };
    return Promise.all((["adaptive", "hints", "fixed1s", "fixed3s"] as const).map(run));
  };
  const samples: LagSample[] = [];
  // Durations one after another (the engine has one duration setting); samples of a duration
  // started 137 ms apart so they do not all poll in step.
  for (const d of durationsMs) {
    const shared = new DurationHints();
    const warmUp = await createTask(d);
    await waitForTasks((taskId) => client.task(taskId), [warmUp], {
      deadline: Date.now() + 600_000,
      timeoutSeconds: 600,
      hints: shared,
    });
    const runs = Array.from({ length: samplesPerDuration }, (_, i) => sleep(i * 137).then(() => one(d, shared)));
    for (const r of await Promise.all(runs)) samples.push(...r);
  }
  return samples;
}

/** The lag at the run's task durations: every sample (for the chart) and, per duration, each waiter's medians. */
export async function lagRows(ctx: BenchContext): Promise<{ samples: LagSample[]; lag: LagRow[] }> {
  const { lagDurations, lagSamples } = ctx.params;
  const samples = await measureTaskLag(ctx.emulator, ctx.apiKey, NETWORK_ID, lagDurations, lagSamples);
  const waiters: Waiter[] = ["adaptive", "hints", "fixed1s", "fixed3s"];
  const lag = lagDurations.map((d) => {
    const row = (w: Waiter) => {
      const of = samples.filter((s) => s.durationMs === d && s.waiter === w);
      return { medianLagMs: median(of.map((s) => s.lagMs)), medianGets: median(of.map((s) => s.gets)) };
    };
    return { durationMs: d, targetLagMs: Math.max(150, 0.05 * d), ...Object.fromEntries(waiters.map((w) => [w, row(w)])) } as LagRow;
  });
  return { samples, lag };
}
