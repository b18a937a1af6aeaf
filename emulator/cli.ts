#!/usr/bin/env node
// `cims-emulator`: runs the emulator until SIGINT/SIGTERM (its flags: cli-options.ts). Each
// request is logged as "METHOD PATH STATUS ms" (never the key).
import { messageOf } from "../api/messages";
import { cliRequest } from "./cli-options";
import { startEmulator } from "./server";

async function main(): Promise<void> {
  const request = cliRequest(process.argv.slice(2), process.env);
  if ("help" in request) {
    process.stdout.write(request.help);
    return;
  }
  if ("usage" in request) {
    process.stderr.write(request.usage);
    process.exit(2);
  }
  const emulator = await startEmulator({
    ...request.options,
    log: request.quiet ? undefined : (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
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
