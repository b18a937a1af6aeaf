// Runs the bench program (bench/program) under the real CLI: timed commands, the peak RSS
// of the dynamic-provider process, and sizes and recorded properties from the exported state.
import { readdir, readFile } from "node:fs/promises";
import * as path from "node:path";
import { linkPythonVenv, PLUGIN_PROJECT, PYTHON_PROJECT } from "../tests/support/cims";
import { createStack, REPO_ROOT, type StackTemplate, type TestStack } from "../tests/support/harness";
import { pythonSdkVenv } from "../tests/support/python-sdk";

export type Mode = "cims" | "plugin" | "python" | "floor" | "naive" | "naive-size";

export async function benchStack(
  mode: Mode,
  config: Record<string, string>,
  secrets: Record<string, string> = {},
  env: Record<string, string> = {},
  template?: StackTemplate,
): Promise<TestStack> {
  if (mode === "python") {
    const stack = await createStack(
      {
        programDir: path.join(REPO_ROOT, "bench/program-py"),
        stackName: "bench-python",
        config,
        secrets,
        env,
        files: { "Pulumi.yaml": PYTHON_PROJECT("cims-bench-py") },
      },
      template,
    );
    await linkPythonVenv(stack, await pythonSdkVenv());
    return stack;
  }
  return createStack(
    {
      programDir: path.join(REPO_ROOT, "bench/program"),
      stackName: `bench-${mode}`,
      config: { "bench:mode": mode, ...config },
      secrets,
      env,
      // The plugin mode's project also names the plugin, as a user's project on that face does (docs/platform.md).
      files: mode === "plugin" ? { "Pulumi.yaml": PLUGIN_PROJECT("cims-bench") } : undefined,
    },
    template,
  );
}

/** Wall time of `fn` in ms. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Samples /proc every 50 ms while `fn` runs, for the provider processes of this stack
 * (node running @pulumi/pulumi/cmd/dynamic-provider, or the plugin, with the stack's PULUMI_HOME), and
 * returns their highest VmHWM (the kernel's own peak-RSS mark) in bytes.
 */
export async function peakProviderRss(stack: TestStack, fn: () => Promise<unknown>): Promise<number> {
  const marker = `PULUMI_HOME=${stack.env.PULUMI_HOME}\0`;
  let peak = 0;
  let running = true;
  const sample = async () => {
    for (const pid of await readdir("/proc").catch(() => [] as string[])) {
      if (!/^\d+$/.test(pid)) continue;
      const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
      // The dynamic face's provider process, or the plugin's (pulumi-resource-cims).
      if (!cmdline.includes("dynamic-provider") && !cmdline.includes("pulumi-resource-cims")) continue;
      const environ = await readFile(`/proc/${pid}/environ`, "utf8").catch(() => "");
      if (!environ.includes(marker)) continue;
      const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    }
  };
  const sampler = (async () => {
    while (running) {
      await sample();
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await fn();
  } finally {
    running = false;
    await sampler;
  }
  return peak;
}

/** What one resource's entry of `pulumi stack export` holds, in bytes of compact JSON. */
export interface StateShare {
  /** The whole entry. */
  resource: number;
  /** Its inputs and outputs: what the provider writes (`__provider` included). */
  inputsOutputs: number;
  /** The `__provider` texts among them (dynamic face: one in the inputs, one in the outputs). */
  provider: number;
  /** The engine's `stackTrace` of the registration: the program's call stack, as its SDK sends it. */
  stackTrace: number;
}

export interface StateSizes {
  resources: number;
  providerBytes: number[];
  stateBytesPerResource: number;
  /** The largest resource of `type` (each figure its largest). */
  share: StateShare;
}

type ExportedResource = { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown>; stackTrace?: unknown };

const bytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** One resource's share of the state (see StateShare). */
export function stateShare(r: ExportedResource): StateShare {
  return {
    resource: bytes(r),
    inputsOutputs: bytes(r.inputs ?? {}) + bytes(r.outputs ?? {}),
    provider: bytes(r.inputs?.__provider) + bytes(r.outputs?.__provider),
    stackTrace: bytes(r.stackTrace),
  };
}

/** Bytes of `__provider` per resource of `type`, of the whole exported state per resource, and its largest resource's share. */
export async function stateSizes(stack: TestStack, type: string): Promise<StateSizes> {
  const { stdout } = await stack.run(["stack", "export", "--stack", stack.name]);
  const resources = (JSON.parse(stdout) as { deployment: { resources?: ExportedResource[] } }).deployment.resources ?? [];
  const ours = resources.filter((r) => r.type === type);
  const shares = ours.map(stateShare);
  const most = (k: keyof StateShare) => Math.max(0, ...shares.map((x) => x[k]));
  return {
    resources: ours.length,
    providerBytes: ours.map((r) => Buffer.byteLength(String(r.outputs?.__provider ?? ""))),
    stateBytesPerResource: ours.length ? Buffer.byteLength(stdout) / ours.length : 0,
    share: { resource: most("resource"), inputsOutputs: most("inputsOutputs"), provider: most("provider"), stackTrace: most("stackTrace") },
  };
}

/** The inputs and outputs one resource of `type` in the stack recorded (without `__provider`), for the floor to hold. */
export async function subnetState(
  s: TestStack,
  type: string,
): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const resources = (await s.exportState()).deployment.resources ?? [];
  const subnet = resources.find((r) => r.type === type);
  if (!subnet) throw new Error(`the stack ${s.name} holds no ${type}`);
  const { __provider: _i, ...inputs } = (subnet.inputs ?? {}) as Record<string, unknown>;
  const { __provider: _o, ...outputs } = (subnet.outputs ?? {}) as Record<string, unknown>;
  return { inputs, outputs };
}
