// A dynamic provider's process takes a SIGTERM (or SIGINT) as the run's cancel, since the
// engine's Cancel never reaches it: operations in flight end after their last look, and then the
// process ends, or a caller that stops it once (a job runner, a test) leaves it running for good.
// The engine itself ends every command by sending its providers a SIGINT, and waits up to 5 s
// before a SIGKILL: a process with nothing in flight must end at once.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "../../../support/harness";

/** A provider process; with `busy`, a create in flight that ends 2 s after the cancel reaches it. */
const script = (busy: boolean) => `
const { installMethods } = require("./provider/methods/install");
const { cancelSignal } = require("./provider/methods/context");
const none = () => Promise.reject(new Error("not called"));
const lastLook = () => new Promise((resolve) => cancelSignal().addEventListener("abort", () => setTimeout(resolve, 2000)));
const target = {};
installMethods(target, { check: none, diff: none, create: lastLook, read: none, update: none, delete: none }, { config: { get: () => undefined } });
if (${String(busy)}) target.create({}).catch(() => {});
setInterval(() => {}, 1000); // a server's listener: the process never idles out
console.log("ready");
`;

let child: ChildProcess | undefined;
// A process that ignored its signal must not outlive the test (it would hold jest open).
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** Starts the provider, sends it `signal`, and says how it ended and after how long. */
async function stop(busy: boolean, signal: NodeJS.Signals) {
  child = spawn(process.execPath, [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "-e", script(busy)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "ignore"],
  });
  await once(createInterface({ input: child.stdout! }), "line");
  const sent = Date.now();
  child.kill(signal);
  const [code, ended] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
  return { code, signal: ended, took: Date.now() - sent };
}

test("with nothing in flight, a SIGINT (the engine closing its provider) ends the process at once", async () => {
  const { code, signal, took } = await stop(false, "SIGINT");
  expect({ code, signal }).toEqual({ code: null, signal: "SIGINT" });
  // Well before the engine's 5 s kill: the command is not held up.
  expect(took).toBeLessThan(3_000);
}, 30_000);

test("a SIGTERM during a create cancels it, and the process ends once that create had its last look", async () => {
  const { code, signal, took } = await stop(true, "SIGTERM");
  expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
  // Not at once (the create gets its last look), and not at the grace period's end either.
  expect(took).toBeGreaterThanOrEqual(1_900);
  expect(took).toBeLessThan(9_000);
}, 30_000);
