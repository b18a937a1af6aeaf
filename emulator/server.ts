// The emulator's HTTP server: it listens and closes. What it is made of is ./app.ts; how it
// answers a request, stage by stage, is ./pipeline/.
import * as http from "node:http";
import { type EmulatorOptions, createApp } from "./app";
import type { Faults } from "./faults";
import type { Metrics } from "./metrics";
import { handleRequest, openExchange } from "./pipeline";
import type { Store } from "./store/store";
import type { TaskEngine } from "./tasks";

export type { EmulatorOptions } from "./app";

export interface RunningEmulator {
  url: string;
  port: number;
  store: Store;
  engine: TaskEngine;
  faults: Faults;
  metrics: Metrics;
  logs: string[];
  /** The request log's file, when there is one. */
  requestLog?: string;
  /**
   * The keys it accepts from the next request on (`apiKey` and `moreApiKeys` to begin with):
   * deleting the old key after adding a new one is a rotation whose old key stops working.
   */
  apiKeys: Set<string>;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const app = createApp(options);
  const server = http.createServer((req, res) => void handleRequest(app, openExchange(req, res)));
  server.on("connection", (socket) => socket.once("close", app.metrics.connection()));
  // Large bodies are refused by the body stage; keep slow clients from holding sockets forever.
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const bound = server.address();
  // Listening on a TCP port, the address is never a pipe's name (a string) nor null.
  if (bound === null || typeof bound === "string") throw new Error(`startEmulator: not listening on a TCP port (${String(bound)})`);
  const host = bound.address.includes(":") ? `[${bound.address}]` : bound.address;
  const { store, engine, faults, metrics, logs, requestLog, apiKeys } = app;
  return {
    url: `http://${host}:${bound.port}`,
    port: bound.port,
    store,
    engine,
    faults,
    metrics,
    logs,
    requestLog,
    apiKeys,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
