// A loopback HTTP server for unit tests: records every request and connection, and lets a
// test script each answer (status, headers, body, delay, or a dropped connection).
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

export async function startTestServer(handler: Handler): Promise<TestServer> {
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
        at: Date.now(),
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

/** A loopback port nothing listens on (taken, then let go): a refused connection. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
