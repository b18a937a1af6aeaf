// What the emulator's API tests share: an emulator per test (useEmulator), started on the
// example seed in this process, and the calls they make to it over real HTTP.
import * as path from "node:path";
import { parseJson, stringifyJson } from "../../../provider/client";
import { type EmulatorOptions, startEmulator, type RunningEmulator } from "pulumi-cims/emulator";

export const KEY = "emu-test-key-31c9";
export const SEED = path.resolve(__dirname, "../../../examples/emulator-seed.json");
/** Records of the example seed. */
export const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
export const ROUTER = "5e2a8f1d-3c4b-4a6e-9d7f-1b2c3d4e5f60";
export const VOLUME = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
export const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
export const KEPT_MEMBER = "7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e";
/** A timestamp as the service writes it. */
export const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

let emu: RunningEmulator;

/** The emulator the running test talks to. */
export const emulator = (): RunningEmulator => emu;

// The emulator runs in this process and reads the time with Date.now(). Only Date is faked:
// its clock stands still unless a test moves it (waitTask, jest.advanceTimersByTime), so "a
// second call while the task still runs" holds however slow the machine is, while timers,
// sockets and fetch stay real.
const REAL = [
  "hrtime",
  "nextTick",
  "performance",
  "queueMicrotask",
  "setImmediate",
  "clearImmediate",
  "setInterval",
  "clearInterval",
  "setTimeout",
  "clearTimeout",
] as const;

/** Each test of the calling file gets a fresh emulator on the example seed, with 250 ms tasks. */
export function useEmulator(): void {
  beforeEach(async () => {
    jest.useFakeTimers({ doNotFake: [...REAL] });
    emu = await startEmulator({ apiKey: KEY, seed: SEED, taskDurationMs: 250 });
  });
  afterEach(async () => {
    await emu.close();
    jest.useRealTimers();
  });
}

/** Stops the test's emulator and starts another with `options` (the test's key unless they say otherwise); it is stopped after the test. */
export async function restartEmulator(options: Omit<EmulatorOptions, "apiKey"> & { apiKey?: string }): Promise<RunningEmulator> {
  await emu.close();
  emu = await startEmulator({ apiKey: KEY, ...options });
  return emu;
}

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions walk arbitrary JSON
  text: string;
  headers: Headers;
}

export async function call(
  method: string,
  p: string,
  body?: unknown,
  opts: { key?: string | null; raw?: string; type?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.key !== null) headers.authorization = `apikey ${opts.key ?? KEY}`;
  const payload = opts.raw ?? (body === undefined ? undefined : stringifyJson(body));
  if (payload !== undefined) headers["content-type"] = opts.type ?? "application/json";
  const res = await fetch(`${emu.url}${p}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, body: text ? parseJson(text) : undefined, text, headers: res.headers };
}

/** A control API call (/__emulator/<p>): no key, as the control API takes none. */
export const control = (method: string, p: string, body?: unknown): Promise<Answer> =>
  call(method, `/__emulator/${p}`, body, { key: null });

/** Polls a task until it ends, moving the emulator's clock on 40 ms between looks. */
export async function waitTask(id: string): Promise<Answer["body"]> {
  for (;;) {
    const { body } = await call("GET", `/cloud/v1/tasks/${id}`);
    if (body.state === "FINISHED" || body.state === "ERROR") return body;
    jest.advanceTimersByTime(40);
  }
}

/** A subnet on the seed's network, made through its task: its id. */
export async function createSubnet(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await call("POST", "/cloud/v1/subnets/1/1", { name: "s", cidr: "10.1.0.0/24", network_id: NET, ...extra });
  expect(res.status).toBe(200);
  const task = await waitTask(res.body.tasks[0]);
  expect(task.state).toBe("FINISHED");
  return task.created_resources.subnets[0];
}
