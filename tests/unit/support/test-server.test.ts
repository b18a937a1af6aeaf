// The unit tests' loopback server (tests/support/test-server.ts) must leave nothing running
// once closed: a reply scripted to hang (a service that never answers) kept its timer alive
// past close(), so the jest worker that ran the test could not exit for a minute and was
// force-exited at the end of the run.
import { spawn } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../../support/harness";

// A process that starts the server, sends one request whose reply waits 60 s, closes the
// server once the request arrived, and then has nothing left to do.
const SCRIPT = `
const http = require("node:http");
const { startTestServer } = require(${JSON.stringify(path.join(REPO_ROOT, "tests/support/test-server.ts"))});
(async () => {
  const server = await startTestServer(() => ({ delayMs: 60000, body: { late: true } }));
  const req = http.request(server.url + "/hang", { agent: false });
  req.on("error", () => console.log("dropped"));
  req.end();
  while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  await server.close();
  console.log("closed");
})();
`;

test("a process that closed the server exits without waiting out a reply's delay", async () => {
  const started = Date.now();
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", SCRIPT], { cwd: REPO_ROOT });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve)).finally(() => clearTimeout(timer));
  expect({ code, out: out.split("\n").filter(Boolean).sort() }).toEqual({ code: 0, out: ["closed", "dropped"] });
  expect(Date.now() - started).toBeLessThan(30_000);
}, 40_000);
