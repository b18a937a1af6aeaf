// A dynamic provider's process takes a SIGTERM (or SIGINT) as the run's cancel, since the
// engine's Cancel never reaches it; it must still end after its waits had their last look,
// or a caller that stops it once (a job runner, a test) leaves it running for good.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "../support/harness";

const SCRIPT = `
const { installMethods } = require("./provider/methods/install");
const none = () => Promise.reject(new Error("not called"));
installMethods({}, { check: none, diff: none, create: none, read: none, update: none, delete: none }, { config: { get: () => undefined } });
setInterval(() => {}, 1000); // a server's listener: the process never idles out
console.log("ready");
`;

let child: ChildProcess | undefined;
// A process that ignored its SIGTERM must not outlive the test (it would hold jest open).
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

test("a SIGTERM cancels, then ends the process after the grace period", async () => {
  child = spawn(process.execPath, [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "-e", SCRIPT], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "ignore"],
  });
  await once(createInterface({ input: child.stdout! }), "line");
  const sent = Date.now();
  child.kill("SIGTERM");
  const [code, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  const took = Date.now() - sent;
  expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
  // Not at once (the waits get their last look), and not never.
  expect(took).toBeGreaterThanOrEqual(9_000);
  expect(took).toBeLessThan(20_000);
}, 30_000);
