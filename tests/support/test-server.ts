// A loopback HTTP server for unit tests: records every request and connection, and lets a
// test script each answer (status, headers, body, delay, or a dropped connection).
import { randomInt } from "node:crypto";
import * as fs from "node:fs/promises";
import * as http from "node:http";
import * as net from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | object;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Drop the connection instead of answering. */
  destroy?: boolean;
}

export type Handler = (req: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  connections: () => number;
  close: () => Promise<void>;
}

export interface TestServerOptions {
  /** The time each request's `at` is read on: a test's own clock, when the client waits on it. */
  now?: () => number;
}

export async function startTestServer(handler: Handler, options: TestServerOptions = {}): Promise<TestServer> {
  const now = options.now ?? Date.now;
  const requests: RecordedRequest[] = [];
  let connections = 0;
  // Replies still waiting out their delay: close() ends them, or a test that scripted a long
  // delay (a hung service) would leave its timer keeping the test process alive for that long.
  const delays = new Set<() => void>();
  const delay = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        delays.delete(stop);
        resolve(false);
      };
      const timer = setTimeout(() => {
        delays.delete(stop);
        resolve(true);
      }, ms);
      delays.add(stop);
    });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: now(),
      };
      requests.push(recorded);
      const reply = await handler(recorded, requests.length - 1);
      if (reply.delayMs && !(await delay(reply.delayMs))) return; // the server closed first
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      const body = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
      res.end(body);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stop of [...delays]) stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback port nothing listens on: a refused connection. It is chosen below the range the
 * system hands out for port 0 and for outgoing connections, and seen refused first. A port
 * taken and let go is not enough: under a loaded run a Pulumi plugin started beside (every
 * server of a test or plugin listens on port 0) took one, and answered in HTTP/2.
 */
export async function closedPort(): Promise<number> {
  const [low] = (await fs.readFile("/proc/sys/net/ipv4/ip_local_port_range", "utf8").catch(() => "32768")).trim().split(/\s+/).map(Number);
  const below = Number.isInteger(low) && low > 2048 ? low : 32768;
  for (let tries = 0; tries < 50; tries++) {
    const port = randomInt(1024, below);
    if (await refused(port)) return port;
  }
  throw new Error(`no closed loopback port found below ${below}`);
}

/** Whether a connection to the loopback port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code === "ECONNREFUSED"));
  });
}
