#!/usr/bin/env node
// `pulumi-resource-cims`: the Pulumi resource provider plugin of pulumi-cims (server.ts). The
// engine runs it and reads the port it listens on from its first line of output.
import { servePlugin } from "./server";

servePlugin(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-cims: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
