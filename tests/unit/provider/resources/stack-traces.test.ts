// Constructing a resource formats no stack trace per property: the SDK wraps each property's
// promise with one (read only to report a leaked promise), and source-mapped under ts-node each
// costs about a millisecond; a Subnet has about twenty properties. PULUMI_DEBUG_PROMISE_LEAKS,
// the SDK's switch for those reports, brings them back. Run in a process of its own, as a
// program runs (the SDK's closure serialization needs node's own v8 module, which jest replaces).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../../support/harness";

const SCRIPT = `
const pulumi = require("@pulumi/pulumi");
pulumi.runtime.setMocks({ newResource: (a) => ({ id: a.name + "-id", state: a.inputs }), call: () => ({}) });
const cims = require("./provider");
const saved = Error.prepareStackTrace;
let traces = 0;
Error.prepareStackTrace = (err, frames) => {
  if (frames.length > 0) traces++;
  return saved ? saved(err, frames) : String(err) + frames.map((f) => "\\n    at " + String(f)).join("");
};
new cims.Subnet("a", { name: "a", cidr: "10.1.0.0/24", networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01" });
const dynamicTraces = traces;
new cims.native.Subnet("n", { name: "n", cidr: "10.2.0.0/24", networkId: "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01" });
const nativeTraces = traces - dynamicTraces;
Error.prepareStackTrace = saved;
let thrown;
try {
  // A parent the SDK refuses, thrown while it sets the resource up.
  new cims.Subnet("b", { name: "b", cidr: "10.1.0.0/24", networkId: "x" }, { parent: {} });
} catch (err) {
  thrown = err;
}
console.log(JSON.stringify({ traces: dynamicTraces, nativeTraces, frames: new Error("x").stack.split("\\n").length, thrown: String(thrown && thrown.stack) }));
`;

async function construct(env: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [require.resolve("ts-node/dist/bin.js"), "--transpile-only", "-e", SCRIPT],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as { traces: number; nativeTraces: number; frames: number; thrown: string };
}

test("a Subnet's construction formats one trace (the SDK's source position), not one per property, on both faces", async () => {
  const { traces, nativeTraces, frames, thrown } = await construct();
  expect(traces).toBeLessThanOrEqual(2);
  expect(nativeTraces).toBeLessThanOrEqual(2);
  // The limit is back for everything after it.
  expect(frames).toBeGreaterThan(2);
  // An error thrown while the SDK sets the resource up keeps its stack, from the program's call.
  expect(thrown).toMatch(/\n\s+at .*\[eval\]/);
}, 60_000);

test("with PULUMI_DEBUG_PROMISE_LEAKS set, every property's promise keeps its trace", async () => {
  const { traces, nativeTraces } = await construct({ PULUMI_DEBUG_PROMISE_LEAKS: "true" });
  expect(traces).toBeGreaterThan(10);
  expect(nativeTraces).toBeGreaterThan(10);
}, 60_000);
