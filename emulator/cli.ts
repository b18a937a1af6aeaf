#!/usr/bin/env node
// `cims-emulator`: runs the emulator until SIGINT/SIGTERM. Flags are parsed with
// node:util parseArgs. Each request is logged as "METHOD PATH STATUS ms" (never the key).
import { parseArgs } from "node:util";
import { messageOf } from "../api/messages";
import { startEmulator } from "./server";

const USAGE = `Usage: cims-emulator [options]

A strict local emulator of the CIMS API (see docs/emulator.md in pulumi-cims).

Options:
  --port <n>              port to listen on (default 0: a free port, printed at start)
  --host <addr>           address to bind (default 127.0.0.1)
  --api-key <key>         the API key to accept (default: $CIMS_API_KEY)
  --seed <file>           seed data (JSON, collections of API records) loaded at start
  --state-file <file>     persist every change here and continue from it after a restart
  --task-duration-ms <n>  how long tasks take from NEW to FINISHED (default 1000)
  --page-size-max <n>     the most records a list page holds, whatever limit asks (default 1000)
  --request-log <file>    append each API request (method, path, status, body) as a JSON line
  --quiet                 do not log requests
  -h, --help              show this help
`;

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: "string", default: "0" },
        host: { type: "string", default: "127.0.0.1" },
        "api-key": { type: "string" },
        seed: { type: "string" },
        "state-file": { type: "string" },
        "task-duration-ms": { type: "string", default: "1000" },
        "page-size-max": { type: "string", default: "1000" },
        "request-log": { type: "string" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`cims-emulator: ${messageOf(err)}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const apiKey = values["api-key"] ?? process.env.CIMS_API_KEY;
  // Digits only: Number() would take "", "0x10" and "1e3" too.
  const whole = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN);
  const port = whole(values.port);
  const taskDurationMs = whole(values["task-duration-ms"]);
  const pageSizeMax = whole(values["page-size-max"]);
  const problems = [
    !apiKey && "an API key is required: --api-key <key> or CIMS_API_KEY",
    !(Number.isInteger(port) && port >= 0 && port <= 65535) && `--port must be 0..65535, got ${values.port}`,
    !(Number.isInteger(taskDurationMs) && taskDurationMs >= 0) &&
      `--task-duration-ms must be an integer >= 0, got ${values["task-duration-ms"]}`,
    !(Number.isInteger(pageSizeMax) && pageSizeMax >= 1 && pageSizeMax <= 1000) &&
      `--page-size-max must be 1..1000, got ${values["page-size-max"]}`,
  ].filter(Boolean);
  if (problems.length > 0) {
    process.stderr.write(`cims-emulator: ${problems.join("; ")}\n`);
    process.exit(2);
  }
  const emulator = await startEmulator({
    apiKey: apiKey!,
    port,
    host: values.host,
    seed: values.seed,
    stateFile: values["state-file"],
    taskDurationMs,
    pageSizeMax,
    requestLog: values["request-log"],
    log: values.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  process.stdout.write(`cims-emulator listening on ${emulator.url}\n`);
  const stop = (signal: string) => {
    process.stdout.write(`cims-emulator: ${signal}, stopping\n`);
    void emulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}

main().catch((err: unknown) => {
  process.stderr.write(`cims-emulator: ${messageOf(err)}\n`);
  process.exit(1);
});
