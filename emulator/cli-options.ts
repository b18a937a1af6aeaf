// What the `cims-emulator` command's flags ask for (cli.ts runs it): the help, a usage error
// naming every flag it refuses, or the emulator's options. Apart from the process so the
// flags' rules are checked in process, where each spawn of the command would compile the
// emulator's sources first. Flags are parsed with node:util parseArgs.
import { parseArgs } from "node:util";
import { messageOf } from "../api/messages";
import type { EmulatorOptions } from "./app";

export const USAGE = `Usage: cims-emulator [options]

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

/** The command's answer to its flags: `usage` is what it prints to stderr before exiting 2. */
export type CliRequest = { help: string } | { usage: string } | { options: Omit<EmulatorOptions, "log">; quiet: boolean };

export function cliRequest(argv: readonly string[], env: NodeJS.ProcessEnv): CliRequest {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
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
    return { usage: `cims-emulator: ${messageOf(err)}\n\n${USAGE}` };
  }
  if (values.help) return { help: USAGE };
  const apiKey = values["api-key"] ?? env.CIMS_API_KEY;
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
  if (problems.length > 0 || !apiKey) return { usage: `cims-emulator: ${problems.join("; ")}\n` };
  return {
    options: {
      apiKey,
      port,
      host: values.host,
      seed: values.seed,
      stateFile: values["state-file"],
      taskDurationMs,
      pageSizeMax,
      requestLog: values["request-log"],
    },
    quiet: values.quiet,
  };
}
