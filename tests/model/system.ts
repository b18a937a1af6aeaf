// The real system under the model: one emulator and one throw-away stack per sequence, the
// program written before each pulumi command, a fault armed for the next command only, and
// what the invariants need to know about the last command.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as os from "node:os";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { api, cimsStack, type CimsTestEnv, type Face, faceProject, isKind, onFace, requestLogFile, SEED } from "../support/cims";
import { PULUMI, type RunResult, type StackExport } from "../support/harness";
import { IGNORE_TAGS, type ProgramModel, renderProgram, TASK_TIMEOUT_S, VOLUMES } from "./program";

export type StateResource = NonNullable<StackExport["deployment"]["resources"]>[number];

/** A fault installed through the control API right before the next pulumi command. */
export interface FaultSpec {
  label: string;
  kind: "request" | "task";
  body: Record<string, unknown>;
  /** A task that never ends: the command's failure leaves work the service finishes later. */
  hang?: boolean;
}

export interface CommandRecord {
  command: string;
  fault?: FaultSpec;
  result: RunResult;
}

type ApiRecord = Record<string, unknown>;

/** A record another team makes on the stack's network or volumes, through the service's API. */
/**
 * What another team makes: a subnet or an image, named `team-b-…` unless `name` says (a twin
 * of the program's own). With `whenAnswerLost` (a POST path), made during the next up at the
 * moment the service's gateway answers that POST 502, not once a task runs.
 */
export type ForeignSpec = ({ kind: "subnets"; cidr: string } | { kind: "images"; volume: string }) & {
  name?: string;
  whenAnswerLost?: string;
};

/** What another team made and still holds: its record as it was made, as JSON text. */
export interface Foreign {
  kind: "subnets" | "images";
  cidr?: string;
  text: string;
}

/** A record as JSON text (exact integers as digits), to compare with what it was. */
export const recordText = (record: ApiRecord | undefined): string =>
  JSON.stringify(record, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));

export class System {
  /** The fault armed for the next pulumi command. */
  armed: FaultSpec | undefined;
  /** A record another team makes while the next `up` runs (once a task of the up runs). */
  foreignDuringUp: ForeignSpec | undefined;
  /** Records other teams made and hold, by id: the stack must never change, delete or record them. */
  readonly foreign = new Map<string, Foreign>();
  /**
   * Members of the shared pool another stack holds (its LbPoolMember resources), by id, as that
   * team last left them: the stack's LbPoolSettings must never remove or change them.
   */
  readonly otherMembers = new Map<string, { address: string; weight: number }>();
  /** Volumes another stack attached to the shared policy (its SnapshotPolicyVolume resources): never detached by the program. */
  readonly otherPolicyVolumes = new Set<string>();
  /** That other stack, once a command made it (disposed with the system). */
  otherStack: { dispose(): Promise<void> } | undefined;
  /** Other teams' stacks, by use: a third team's program and its `pulumi import` of the pool, the policy's other team (disposed with the system). */
  readonly thirdStacks = new Map<string, { dispose(): Promise<void> }>();
  private foreignMade = 0;
  /** Every pulumi command run, for the failure report. */
  readonly history: string[] = [];
  commandsRun = 0;
  /**
   * `preview --expect-no-changes` after every successful up, also one that changed no resource
   * (the soak's choice: it costs a command, and the soak looks for what the model assumes).
   */
  previewEveryUp = false;
  /**
   * The state's resources as last exported. Only a pulumi command changes the state, and the
   * invariants read it two or three times after each: one `stack export` (a CLI start) serves them.
   */
  private exported: Promise<StateResource[]> | undefined;

  private constructor(
    readonly env: CimsTestEnv,
    /** The face the program's resources are on; the other teams' stacks use it too. */
    readonly face: Face,
  ) {}

  /** The emulator's rate limit (requests a second per key) for the whole sequence, if any. */
  private rateLimit: number | undefined;

  static async start(taskDurationMs: number, rateLimit?: number, face: Face = "dynamic"): Promise<System> {
    const env = await cimsStack({
      taskDurationMs,
      files: { "Pulumi.yaml": faceProject("lifecycle-model", face), "index.js": "" },
      // A slow answer (6 s) outlasts the request timeout; an ordinary one never comes close.
      config: {
        "cims:requestTimeoutSeconds": "3",
        "cims:taskTimeoutSeconds": String(TASK_TIMEOUT_S),
        "cims:ignoreTags": JSON.stringify(IGNORE_TAGS),
      },
      // The writes an up sends (PreviewedUp), outside the e2e run's log directory too (a soak).
      emulator: { requestLog: requestLogFile() ?? path.join(os.tmpdir(), `lifecycle-model-${randomBytes(6).toString("hex")}.jsonl`) },
    });
    const system = new System(env, face);
    const volume = {
      name: "second-root",
      size: 20,
      status: "available",
      volume_type: "standard",
      bootable: true,
      project_id: 1,
      region_id: 1,
    };
    const seeded = await api(env, "POST", "/__emulator/seed", { volumes: [{ id: VOLUMES[1], ...volume }] });
    if (seeded.status !== 204) throw new Error(`seeding the second volume failed: ${JSON.stringify(seeded.body)}`);
    system.rateLimit = rateLimit;
    if (rateLimit !== undefined) env.emulator.faults.setRateLimit(rateLimit);
    return system;
  }

  async dispose(): Promise<void> {
    await this.otherStack?.dispose();
    for (const stack of this.thirdStacks.values()) await stack.dispose();
    await this.env.dispose();
  }

  async writeProgram(program: ProgramModel): Promise<void> {
    await fs.writeFile(path.join(this.env.stack.projectDir, "index.js"), onFace(renderProgram(program), this.face));
  }

  /** Runs `pulumi <command>` with the armed fault (then cleared, releasing hung tasks). */
  async pulumi(command: "up" | "preview" | "refresh" | "destroy", program: ProgramModel, extra: string[] = []): Promise<CommandRecord> {
    await this.writeProgram(program);
    const fault = this.armed;
    this.armed = undefined;
    if (fault) await this.control("POST", fault.kind === "task" ? "/__emulator/task-faults" : "/__emulator/faults", fault.body);
    const stack = this.env.stack;
    this.exported = undefined;
    const run = { up: stack.up, preview: stack.preview, refresh: stack.refresh, destroy: stack.destroy }[command].bind(stack);
    const during = command === "up" ? this.foreignDuringUp : undefined;
    this.foreignDuringUp = undefined;
    const running = run(extra, { allowFailure: true });
    const making = during?.whenAnswerLost
      ? this.makeForeignWhenAnswerLost(during, running)
      : during && this.makeForeignOnceATaskRuns(during, running);
    const result = making ? (await Promise.all([running, making]))[0] : await running;
    this.exported = undefined;
    await this.clearFaults();
    this.commandsRun++;
    const label = [command, ...extra].join(" ");
    this.history.push(`${label}${fault ? ` [fault: ${fault.label}]` : ""} -> exit ${result.code}`);
    return { command: label, fault, result };
  }

  /**
   * `pulumi up` sent SIGINT once a task it started runs in the emulator (watched in the
   * emulator, not the CLI's output, which can lag). An up that starts no task runs to its end.
   * `interrupted` says whether the signal was sent.
   */
  async interruptedUp(program: ProgramModel): Promise<CommandRecord & { interrupted: boolean }> {
    await this.writeProgram(program);
    const stack = this.env.stack;
    this.exported = undefined;
    const tasksBefore = new Set(Object.keys(this.env.emulator.store.tasks));
    await stack.programRuns();
    const child = spawn(PULUMI, ["up", "--yes", "--skip-preview", "--stack", stack.name, "--non-interactive"], {
      cwd: stack.projectDir,
      env: stack.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let ended = false;
    const exited = new Promise<RunResult>((resolve) =>
      child.on("close", (code, signal) => {
        ended = true;
        resolve({ code, signal, stdout, stderr });
      }),
    );
    let interrupted = false;
    while (!ended && !interrupted) {
      const started = Object.values(this.env.emulator.store.tasks).some(
        (t) => !tasksBefore.has(t.id) && (t.state === "NEW" || t.state === "RUNNING"),
      );
      if (started) {
        child.kill("SIGINT");
        interrupted = true;
      } else await new Promise((r) => setTimeout(r, 20));
    }
    // As the harness does for every command: a run that hangs is killed, and the output says so.
    const timer = setTimeout(() => child.kill("SIGKILL"), 5 * 60_000);
    const result = await exited.finally(() => clearTimeout(timer));
    this.exported = undefined;
    this.commandsRun++;
    this.history.push(`up${interrupted ? " [SIGINT while a task ran]" : " (no task started: not interrupted)"} -> exit ${result.code}`);
    return { command: interrupted ? "up (SIGINT)" : "up", result, interrupted };
  }

  /**
   * Another team makes a subnet on the stack's network or an image from one of its volumes,
   * through the service's API. Tracked when its task finishes (the service may refuse it: an
   * overlapping CIDR, a locked volume).
   */
  async makeForeign(spec: ForeignSpec): Promise<string | undefined> {
    const n = ++this.foreignMade;
    const [path, body] =
      spec.kind === "subnets"
        ? [
            "/cloud/v1/subnets/1/1",
            { name: spec.name ?? `team-b-net-${n}`, cidr: spec.cidr, network_id: SEED.networkId, tags: { owner: "team-b" } },
          ]
        : ["/cloud/v1/bmimages/1/1", { name: spec.name ?? `team-b-image-${n}`, volume_id: spec.volume, tags: { owner: "team-b" } }];
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await api(this.env, "POST", path, body);
      if (res.status === 409) {
        await new Promise((r) => setTimeout(r, 100)); // the volume is locked by a running task
        continue;
      }
      if (res.status !== 200) throw new Error(`another team's create failed: ${res.status} ${JSON.stringify(res.body)}`);
      const taskId = (res.body as { tasks: string[] }).tasks[0];
      await this.waitTask(taskId);
      const task = (await api(this.env, "GET", `/cloud/v1/tasks/${taskId}`)).body as {
        state: string;
        created_resources: Record<string, string[]>;
      };
      const id = task.state === "FINISHED" ? task.created_resources[spec.kind]?.[0] : undefined;
      const record = id ? this.env.emulator.store.get(spec.kind, id) : undefined;
      if (!id || !record) return undefined;
      this.foreign.set(id, { kind: spec.kind, cidr: spec.kind === "subnets" ? spec.cidr : undefined, text: recordText(record) });
      this.history.push(`another team made ${spec.kind} ${id}`);
      return id;
    }
    return undefined;
  }

  /** Makes the foreign record once a task of the running command has started (or after the command, if none does). */
  private async makeForeignOnceATaskRuns(spec: ForeignSpec, running: Promise<RunResult>): Promise<void> {
    const tasksBefore = new Set(Object.keys(this.env.emulator.store.tasks));
    let ended = false;
    void running.finally(() => (ended = true));
    while (!ended) {
      const started = Object.values(this.env.emulator.store.tasks).some(
        (t) => !tasksBefore.has(t.id) && (t.state === "NEW" || t.state === "RUNNING"),
      );
      if (started) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await this.makeForeign(spec);
  }

  /**
   * Makes the foreign record as soon as the emulator has answered the spec's POST with a 502
   * (the answer the provider loses), so that it appears while the provider looks for what its
   * create made. Not made if the command ends before.
   */
  private async makeForeignWhenAnswerLost(spec: ForeignSpec, running: Promise<RunResult>): Promise<void> {
    const key = `POST ${spec.whenAnswerLost === "/cloud/v1/subnets/1/1" ? "/cloud/v1/subnets" : "/cloud/v1/bmimages"}/:project_id/:region_id 502`;
    const lost = () => (this.env.emulator.metrics.snapshot().requests[key] ?? 0) > 0;
    let ended = false;
    void running.finally(() => (ended = true));
    while (!ended && !lost()) await new Promise((r) => setTimeout(r, 5));
    if (lost()) await this.makeForeign(spec);
  }

  /** Another team deletes its record (it was in the way of the program's CIDR). */
  async removeForeign(id: string): Promise<void> {
    const kind = this.foreign.get(id)?.kind ?? "subnets";
    const del = await api(this.env, "DELETE", `/cloud/v1/${kind}/1/1/${id}`);
    if (del.status >= 300) throw new Error(`another team's delete failed: ${del.status} ${JSON.stringify(del.body)}`);
    await this.waitTask((del.body as { tasks: string[] }).tasks[0]);
    this.foreign.delete(id);
    this.history.push(`another team deleted ${kind} ${id}`);
  }

  async clearFaults(): Promise<void> {
    await this.control("DELETE", "/__emulator/faults");
    // Clearing the faults lifts the rate limit too; the sequence's limit stays.
    if (this.rateLimit !== undefined) this.env.emulator.faults.setRateLimit(this.rateLimit);
  }

  async control(method: string, p: string, body?: unknown): Promise<void> {
    const res = await api(this.env, method, p, body);
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  }

  async resources(): Promise<StateResource[]> {
    this.exported ??= this.env.stack.exportState().then((state) => (state.deployment.resources ?? []).filter((r) => isCims(r.type)));
    const exported = this.exported;
    // A failed export is not kept; a copy for each caller, so none sees another's edits.
    return structuredClone(
      await exported.catch((err: unknown) => {
        if (this.exported === exported) this.exported = undefined;
        throw err;
      }),
    );
  }

  /** Waits for a task started outside Pulumi (drift) to end. */
  async waitTask(taskId: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const task = (await api(this.env, "GET", `/cloud/v1/tasks/${taskId}`)).body as { state?: string };
      if (task.state === "FINISHED" || task.state === "ERROR") return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`task ${taskId} did not end`);
  }
}

/** Whether a state type token is one of this package's kinds, on either face. */
const isCims = (type: string) => isKind(type, type.split(":").pop() ?? "");

/** The Pulumi resource name of a state resource (`s0`, `img1`, `pool`...). */
export const nameOf = (r: StateResource) => r.urn.split("::").pop() ?? "";

export const POOL_PATH = `/cloud/v1/lbpools/1/1/${SEED.poolId}`;
