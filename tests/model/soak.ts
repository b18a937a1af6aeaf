// `npm run soak -- --runs N --seed S [--commands M] [--minutes T] [--parallel P]`: long
// lifecycle-model runs under the real engine. P workers run at once (each sequence has its own
// emulator and stack, so they share no state); worker k uses seed S+k. Prints every sequence,
// and for a failure its seed and the shrunk command sequence (fast-check's report).
import { parseArgs } from "node:util";
import { runLifecycle, type RunSummary } from "./run";

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "20" },
      seed: { type: "string", default: String(Date.now() % 2 ** 31) },
      commands: { type: "string", default: "15" },
      minutes: { type: "string", default: "60" },
      "task-ms": { type: "string", default: "50" },
      parallel: { type: "string", default: "2" },
      "rate-limit": { type: "string" },
    },
  });
  const seed = Number(values.seed);
  const runs = Number(values.runs);
  const parallel = Math.max(1, Math.min(Number(values.parallel), runs));
  const started = Date.now();
  console.log(
    `lifecycle soak: seeds ${seed}..${seed + parallel - 1}, ${runs} sequences of up to ${values.commands} commands in ${parallel} workers, at most ${values.minutes} min` +
      (values["rate-limit"] ? `, the emulator limiting each key to ${values["rate-limit"]} requests a second` : ""),
  );
  const workers = Array.from({ length: parallel }, (_, k) =>
    runLifecycle({
      seed: seed + k,
      // Sequences split evenly; the first workers take the remainder.
      runs: Math.floor(runs / parallel) + (k < runs % parallel ? 1 : 0),
      maxCommands: Number(values.commands),
      taskDurationMs: Number(values["task-ms"]),
      timeLimitMs: Number(values.minutes) * 60_000,
      rateLimit: values["rate-limit"] === undefined ? undefined : Number(values["rate-limit"]),
      log: (line) => console.log(`[${new Date().toISOString().slice(11, 19)} seed ${seed + k}] ${line}`),
      // What the tests leave out as implied (a preview after an up that changed nothing), the soak checks.
      previewEveryUp: true,
    }),
  );
  const summaries: RunSummary[] = await Promise.all(workers);
  const total = (f: (s: RunSummary) => number) => summaries.reduce((n, s) => n + f(s), 0);
  console.log(
    `\nseeds ${seed}..${seed + parallel - 1}: ${total((s) => s.sequences)} sequences (shrinking included), ${total((s) => s.pulumiCommands)} pulumi commands, ${Math.round((Date.now() - started) / 1000)} s`,
  );
  const failed = summaries.filter((s) => s.failure);
  for (const s of failed) console.log(`\nFAILURE (seed ${s.seed}):\n${s.failure}`);
  if (failed.length > 0) return 1;
  console.log("no failures");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
