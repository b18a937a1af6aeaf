// A real S3-compatible server (scripts/s3-server: moto's, installed from PyPI on first use and
// cached in ~/.cache/pulumi-cims) holding one bucket, for stacks whose state lives where a
// team's CI machines share it: `pulumi login s3://...`. A counting proxy stands in front of it,
// so a test can tell how many requests and bytes the engine's checkpoints cost.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { PROGRAMS_DIR_ENV } from "./programs";
import { REPO_ROOT, TestStack } from "./harness";

/** The first start installs the server (a venv from PyPI): minutes on a loaded machine. */
const START_TIMEOUT_MS = 5 * 60_000;

export interface S3Traffic {
  requests: number;
  /** Request bodies sent to the server (the checkpoints written). */
  bytesIn: number;
  /**
   * The bodies of PUT requests alone: the objects uploaded (checkpoints, their history, locks).
   * A copy (the backend's backup of the checkpoint before it writes the next) is a PUT with no
   * body, so it adds nothing here: the server copies what it holds.
   */
  bytesPut: number;
  /** The largest PUT body: the checkpoint at its largest, as stored (gzipped when the backend gzips). */
  largestPut: number;
  /** Response bodies it sent back. */
  bytesOut: number;
  /** Requests per `METHOD` (GET, PUT, DELETE, HEAD...). */
  byMethod: Record<string, number>;
}

export interface S3Server {
  /** What `pulumi login` takes (PULUMI_BACKEND_URL): the bucket, through the counting proxy. */
  backendUrl: string;
  /** The AWS_* variables a machine needs: a fresh secret key, which no output may show. */
  credentials: Record<string, string>;
  /** The traffic since the server started, or since the last reset. */
  traffic(): S3Traffic;
  resetTraffic(): void;
  close(): Promise<void>;
}

/** Starts scripts/s3-server on a free port, with a counting proxy, and makes a bucket. */
export async function startS3Server(): Promise<S3Server> {
  const port = await freePort();
  const server = spawn(path.join(REPO_ROOT, "scripts/s3-server"), [String(port)], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  server.stdout?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  server.stderr?.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  try {
    await waitUntilServing(port, server, () => log);
    const bucket = `state-${randomBytes(4).toString("hex")}`;
    const made = await fetch(`http://127.0.0.1:${port}/${bucket}`, { method: "PUT" });
    if (!made.ok) throw new Error(`creating bucket ${bucket} answered ${made.status}: ${await made.text()}`);
    const proxy = await countingProxy(port);
    return {
      backendUrl: `s3://${bucket}?endpoint=http://127.0.0.1:${proxy.port}&s3ForcePathStyle=true&region=us-east-1`,
      credentials: {
        AWS_ACCESS_KEY_ID: `AKIA${randomBytes(8).toString("hex").toUpperCase()}`,
        AWS_SECRET_ACCESS_KEY: randomBytes(20).toString("base64url"),
        AWS_REGION: "us-east-1",
        AWS_EC2_METADATA_DISABLED: "true",
      },
      traffic: () => structuredClone(proxy.traffic),
      resetTraffic: () => Object.assign(proxy.traffic, emptyTraffic()),
      close: async () => {
        await new Promise((r) => proxy.server.close(r));
        stop(server);
      },
    };
  } catch (err) {
    stop(server);
    throw err;
  }
}

function stop(server: ChildProcess): void {
  try {
    if (server.pid !== undefined) process.kill(-server.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

async function waitUntilServing(port: number, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`scripts/s3-server exited ${server.exitCode}:\n${log()}`);
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) throw new Error(`scripts/s3-server did not serve port ${port} in ${START_TIMEOUT_MS} ms:\n${log()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const emptyTraffic = (): S3Traffic => ({ requests: 0, bytesIn: 0, bytesPut: 0, largestPut: 0, bytesOut: 0, byMethod: {} });

/** Forwards every request to the server on `target`, counting requests and body bytes. */
export async function countingProxy(target: number): Promise<{ server: http.Server; port: number; traffic: S3Traffic }> {
  const traffic = emptyTraffic();
  const server = http.createServer((req, res) => {
    traffic.requests++;
    traffic.byMethod[req.method ?? "?"] = (traffic.byMethod[req.method ?? "?"] ?? 0) + 1;
    const upstream = http.request(
      { host: "127.0.0.1", port: target, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on("data", (d: Buffer) => (traffic.bytesOut += d.length));
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    let body = 0;
    req.on("data", (d: Buffer) => {
      traffic.bytesIn += d.length;
      body += d.length;
    });
    req.on("end", () => {
      if (req.method !== "PUT") return;
      traffic.bytesPut += body;
      traffic.largestPut = Math.max(traffic.largestPut, body);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as AddressInfo).port, traffic };
}

/**
 * Another CI machine running `stack`: its own PULUMI_HOME and checkout (a copy of the project
 * with its stack config), logged in to `backendUrl` with `pulumi login` as a CI job would be.
 */
export async function anotherMachine(stack: TestStack, backendUrl: string, env: Record<string, string>): Promise<TestStack> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "pulumi-cims-e2e-"));
  await fs.cp(stack.projectDir, path.join(root, "project"), { recursive: true, verbatimSymlinks: true });
  const machine = new TestStack(root, stack.name, env);
  const programs = process.env[PROGRAMS_DIR_ENV];
  if (stack.env.PULUMI_NODEJS_TRANSPILE_ONLY === "true" && programs) machine.transpileOnly(programs);
  if (stack.runsJavaScript) machine.asJavaScript();
  delete machine.env.PULUMI_BACKEND_URL;
  await machine.run(["login", backendUrl]);
  return machine;
}
