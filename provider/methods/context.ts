// The provider process's context: settings from the dynamic provider's configure()
// (stack config in the `cims` namespace) or the environment, one shared API client, the
// proof of the key and the URL before its first call, the progress log, deadlines, and the
// run's cancel. Nothing here is ever serialized into state.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { setMaxListeners } from "node:events";
import { processClock } from "../client/clock";
import { proveCredentials } from "../client/credentials";
import { CimsClient } from "../client/http";
import { PATHS } from "../../api/paths";
import { listAll } from "../client/list";
import { Pacer } from "../client/pacer";
import { TaskBoard } from "../client/task-board";
import { processHints } from "../client/task-hints";
import { forgetWithRun } from "./run-memory";
import { MIN_REDACTED_KEY_LENGTH, type Redactor, redactor, tooShortToRedact } from "../client/redact";
import type { TaskProgress } from "../client/tasks";
import { type ConfigLookup, type ProviderSettings, resolveScope, resolveSettings, resolveTags } from "../config";
import type { TagSettings } from "./tag-rules";

let lookup: ConfigLookup = () => undefined;
let settings: ProviderSettings | undefined;
let tags: TagSettings | undefined;
let client: CimsClient | undefined;
const writeListeners: Array<() => void> = [];
/** The credential probe of each configuration this process has seen (see verifyCredentials). */
const probes = new Map<string, Promise<void>>();
/** Every request of the process takes its turn here, whichever resource sends it (pacer.ts). */
const pacer = new Pacer();
forgetWithRun(() => pacer.forget());
/** Every task wait of the process looks at its scope's task list here (task-board.ts). */
const taskBoard = new TaskBoard(
  (scope, from) =>
    listAll(
      apiClient(),
      PATHS.tasks,
      {
        project_id: scope.projectId,
        region_id: scope.regionId,
        ...(from === undefined ? { state: ["NEW", "RUNNING"] } : { from_timestamp: from }),
      },
      undefined,
      // Every wait of the scope looks through it: it goes before the creates queued for their turns.
      { ahead: true },
    ),
  processClock,
  // Lists are spaced by the limit the service showed, not by the rate the pacer climbs to past it.
  () => pacer.state.limit,
  true,
);
forgetWithRun(() => taskBoard.forget());
forgetWithRun(() => processHints.forget());
/** Aborted by cancelOperations(): for good, as the engine cancels a run only to end it. */
const cancellation = new AbortController();
// Every wait of the process listens to it (50 subnets at once wait together): no leak warning.
setMaxListeners(0, cancellation.signal);

/** Called before every request of ours that may change something (coalesced lists end then). */
export function onWrite(listener: () => void): void {
  writeListeners.push(listener);
}

/** Called from configure(): keys are looked up as `cims:<key>`. */
export function setConfig(get: (key: string) => string | undefined): void {
  lookup = (key) => get(`cims:${key}`);
  settings = undefined;
  tags = undefined;
  client = undefined;
}

/** `cims:defaultTags` and `cims:ignoreTags` (need no API key, so check() can use them in preview). */
export function tagSettings(): TagSettings {
  tags ??= resolveTags(lookup, process.env);
  return tags;
}

/** The default projectId/regionId (needs no API key, so check() can use it in preview). */
export function scopeDefaults(): { projectId?: number; regionId?: number } {
  return resolveScope(lookup, process.env);
}

export function currentSettings(): ProviderSettings {
  settings ??= resolveSettings(lookup, process.env);
  return settings;
}

export function apiClient(): CimsClient {
  if (!client) {
    const s = currentSettings();
    warnShortKey(s.apiKey);
    pacer.cap = s.maxRequestsPerSecond;
    // apiKey is not enumerable. A write ends the use of every coalesced list (coalesce.ts).
    client = new CimsClient({
      ...s,
      apiKey: s.apiKey,
      pacer,
      taskBoard,
      log,
      beforeWrite: () => writeListeners.forEach((l) => l()),
      ready: verifyCredentials,
      cancel: cancellation.signal,
    });
  }
  return client;
}

/**
 * Proves the key and the URL with one read (client/credentials.ts), once per provider process
 * and configuration: the first API call and every check() whose inputs are valid await it,
 * so a preview of an unchanged stack, a refresh and a destroy all fail on a refused key or
 * a wrong URL before anything else. Concurrent callers share the one request, and its
 * outcome, failure included, stands for the process. `cims:skipCredentialsValidation` turns
 * it off. The dynamic face configures once per kind with the same config: keyed by what the
 * probe reads, not by the client, so it still runs once.
 */
export async function verifyCredentials(): Promise<void> {
  const s = currentSettings();
  warnShortKey(s.apiKey);
  if (s.skipCredentialsValidation) return;
  // The key as a digest: nothing kept in memory beyond the settings names it.
  const id = [s.apiUrl.href, s.projectId ?? "", createHash("sha256").update(s.apiKey).digest("hex")].join(" ");
  let probe = probes.get(id);
  if (!probe) {
    probe = proveCredentials({ ...s, apiKey: s.apiKey, log });
    probes.set(id, probe);
  }
  return probe;
}

let shortKeyWarned = false;

/**
 * Once per process, before the key's first use: a key too short to be searched for in messages
 * (redact.ts) shows as it is wherever a message quotes it, so its holder hears it once.
 */
function warnShortKey(apiKey: string): void {
  if (shortKeyWarned || !tooShortToRedact(apiKey)) return;
  shortKeyWarned = true;
  void warn(
    `the API key (cims:apiKey or CIMS_API_KEY) is shorter than ${MIN_REDACTED_KEY_LENGTH} characters, too short to be hidden in messages: ` +
      "an error or a log line that quotes it (a service's answer echoing the request) shows it as it is, since cutting so short a text " +
      `out of every message would cut it out of names and ids too. Use a key of ${MIN_REDACTED_KEY_LENGTH} or more characters to keep it out of every message`,
  );
}

/**
 * A progress line, or a warning (what an `up` will remove or interrupt, said in the preview),
 * or a debug line (a failure's stack trace: the CLI shows it with `--debug` only).
 */
export type Severity = "info" | "warning" | "debug";

type Sink = (line: string, severity: Severity) => void | Promise<void>;

let sink: Sink = (line) => {
  process.stdout.write(`${line}\n`);
};

/** The keys this process may hold (stack config and the environment), each with its redactor. */
const redactors = new Map<string, Redactor>();

function keysInUse(): Redactor[] {
  const keys = [lookup("apiKey"), process.env.CIMS_API_KEY].filter((k): k is string => typeof k === "string" && k !== "");
  return keys.map((key) => {
    let r = redactors.get(key);
    if (!r) redactors.set(key, (r = redactor(key)));
    return r;
  });
}

/**
 * A line or a failure about to leave the provider, with the key's text out of it: messages the
 * provider builds from what the service holds (a record's name) may quote it too.
 */
export function redactText(text: string): string {
  return keysInUse().reduce((t, r) => r.text(t), text);
}

export function redactError<T>(err: T): T {
  for (const r of keysInUse()) r.error(err);
  return err;
}

/**
 * Where progress lines and warnings go: the dynamic provider's stdout by default (the engine
 * shows it in the `pulumi up` output, as info); the plugin, whose output the engine hides,
 * sends them to the engine's log under the resource instead, and the dynamic face sends its
 * warnings there too (install.ts), so they show as warnings.
 */
export function setLogSink(write: Sink): void {
  sink = write;
}

/** One progress line. Never given the key: callers pass ids, states and paths only. */
export function log(message: string): void {
  void sink(redactText(`cims: ${message}`), "info");
}

/**
 * One warning (`warning:` in the CLI's output). Never given the key. Settled once the engine
 * has it, so a preview that ends right after still shows it.
 */
export async function warn(message: string): Promise<void> {
  await sink(redactText(`cims: ${message}`), "warning");
}

/**
 * A failure's stack trace, for whoever debugs the provider rather than for the user, whose
 * error already says what to do: `pulumi <command> --debug` shows it, and CIMS_DEBUG=1 shows
 * it always. The failure itself is reported once, by the engine, under its resource.
 * Settled once the engine has the trace: a failure answered first may end the run.
 */
export async function traceFailure(err: unknown): Promise<void> {
  if (!(err instanceof Error) || !err.stack) return;
  await sink(redactText(err.stack), debugSeverity());
}

/** Debug lines show with `pulumi <command> --debug`, and always with CIMS_DEBUG=1. */
const debugSeverity = (): Severity => (process.env.CIMS_DEBUG === "1" ? "info" : "debug");

/**
 * A progress reporter for waitForTasks: one line per task state change, at debug level. An
 * `up`'s output holds what its reader must act on (warnings; what was adopted, removed or left),
 * as registry providers keep their progress out of it; a stuck task is still named by its
 * timeout's error.
 */
export function progress(what: string): (p: TaskProgress) => void {
  return (p) =>
    void sink(redactText(`cims: ${what}: task ${p.taskId} ${p.previousState ? `${p.previousState} -> ` : ""}${p.state}`), debugSeverity());
}

/**
 * The engine's Cancel (SIGINT or SIGTERM of `pulumi up`, on the plugin face): every task wait
 * ends within seconds, after a last look at its tasks, and no retry starts. A create whose
 * task already names its record is recorded as partly created (create.ts).
 */
export function cancelOperations(): void {
  cancellation.abort();
}

/** The URN of the resource the call being served is about, where the face knows it. */
let urnSource: () => string | undefined = () => undefined;

/**
 * Set by the plugin, whose every call names its resource's URN. The dynamic face has none to
 * give: Pulumi's dynamic provider host passes a create its inputs only.
 */
export function setResourceUrn(get: () => string | undefined): void {
  urnSource = get;
}

/** The URN of the resource being served, if the face knows it (create marks name it: mark.ts). */
export const resourceUrn = (): string | undefined => urnSource();

/** Whether the run was cancelled (loops that wait check it between rounds). */
export const cancelSignal = (): AbortSignal => cancellation.signal;

export type Operation = "create" | "update" | "delete";

/** The limit the engine gave the call being served: the resource's `customTimeouts` for its operation, in seconds. */
const engineTimeout = new AsyncLocalStorage<number | undefined>();

/**
 * Runs one engine call with the limit the engine gave it (`customTimeouts`; 0 or undefined:
 * none). The dynamic face never has one: the engine does not pass it to dynamic providers.
 */
export function withEngineTimeout<T>(seconds: number | undefined, fn: () => Promise<T>): Promise<T> {
  return engineTimeout.run(seconds !== undefined && seconds > 0 ? seconds : undefined, fn);
}

export interface Deadline {
  deadline: number;
  timeoutSeconds: number;
  /** How to raise the limit that set it, for the timeout message. */
  raise: string;
}

/**
 * The deadline of an operation's waits. Either per-resource limit, the `timeouts` input or
 * Pulumi's `customTimeouts` option (plugin face), overrides `cims:taskTimeoutSeconds`, the
 * provider's default, up or down; given both, the smaller wins: each is a limit the program
 * set, and neither is kept by going past it.
 */
export function deadlineFor(op: Operation, props: { timeouts?: Partial<Record<Operation, number>> }): Deadline {
  const input = props.timeouts?.[op];
  const custom = engineTimeout.getStore();
  let timeoutSeconds: number;
  let raise: string;
  if (custom !== undefined && (input === undefined || custom <= input)) {
    timeoutSeconds = custom;
    raise = `raise the resource's \`customTimeouts\` option (${op})${input !== undefined ? ` and its \`timeouts.${op}\` input` : ""}`;
  } else if (input !== undefined) {
    timeoutSeconds = input;
    raise = `raise the resource's \`timeouts.${op}\` input${custom !== undefined ? ` and its \`customTimeouts\` option (${op})` : ""}`;
  } else {
    timeoutSeconds = currentSettings().taskTimeoutSeconds;
    raise = "raise the limit with `pulumi config set cims:taskTimeoutSeconds <seconds>` or the resource's `timeouts` input";
  }
  return { deadline: processClock.now() + timeoutSeconds * 1000, timeoutSeconds, raise };
}
