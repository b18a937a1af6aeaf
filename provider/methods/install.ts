// What configure() does in the provider process, for every kind: take the stack config,
// then put the kind's methods on the deserialized shim object.
import type * as pulumi from "@pulumi/pulumi";
import { CANCEL_LOOK_MS } from "../client/tasks";
import { ConfigurationError } from "../client/errors";
import { unknownStackKeys } from "../config";
import { isRecord } from "../../api/guards";
import { cancelOperations, redactError, redactText, setConfig, setLogSink, traceFailure } from "./context";
import type { KindDiff } from "./diff";
import { engineAddress, engineLog } from "./engine-log";

/** A kind's methods, as the dynamic shim and the plugin call them; diff says what changed. */
export type Methods = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "create" | "read" | "update" | "delete">> & {
  diff(...args: Parameters<NonNullable<pulumi.dynamic.ResourceProvider["diff"]>>): Promise<KindDiff>;
};

let sinkSet = false;

/**
 * For each failure of check, diff, read or delete passed to the dynamic-provider host and not
 * yet printed, what the host prints for it on the provider's stderr (`${err}: ${err.stack}`,
 * which the CLI shows under the stack). The engine reports the failure under its resource
 * already: printed again, with a trace through the provider's code, it would be said twice
 * more, as noise. See quietHost.
 */
const passedOn = new Set<string>();
const hostText = (err: unknown) => `${String(err)}: ${err instanceof Error ? err.stack : undefined}`;

/** The host's console.error, less its print of a failure of ours (passedOn); anything else it prints as it did. */
function quietHost(): void {
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && passedOn.delete(args[0])) return;
    print(...args);
  };
}

/**
 * The stack's `cims:` keys the configure request holds. The dynamic provider's Config has only
 * get(); the host's object keeps the whole stack config beside it (`rawConfig`, a private field
 * of @pulumi/pulumi's dynamic-provider Config), read here only to find keys no entry reads.
 */
function givenKeys(config: pulumi.dynamic.Config): string[] {
  return "rawConfig" in config && isRecord(config.rawConfig) ? Object.keys(config.rawConfig) : [];
}

/** How long a cancelled process lets its waits take their last look (tasks.ts: CANCEL_LOOK_MS) before it ends. */
const CANCEL_GRACE_MS = CANCEL_LOOK_MS + 5_000;
/**
 * After the last operation in flight has ended, how long the process stays for the host to send
 * that operation's answer (the engine records what it says: a create's id, the tasks still
 * running); ending as the operation settles, the answer was lost ("error reading from server: EOF").
 */
const ANSWER_MS = 1_000;

export function installMethods(target: object, methods: Methods, req: pulumi.dynamic.ConfigureRequest): void {
  setConfig((key) => req.config.get(key));
  if (!sinkSet) {
    sinkSet = true;
    quietHost();
    // Progress lines stay on stdout (the engine shows them as they come); warnings and debug
    // lines go to the engine's log, so the CLI shows them as such.
    const address = engineAddress();
    const toEngine = address ? engineLog(address) : undefined;
    setLogSink((line, severity) => {
      if (severity !== "info") return toEngine?.(line, severity);
      process.stdout.write(`${line}\n`);
    });
    // The engine's Cancel never reaches a dynamic provider (its server answers it and does
    // nothing); a SIGINT or SIGTERM sent to this process (a job runner cancelling the run, a
    // terminal's Ctrl-C where the process shares its group) is that cancel: every wait ends
    // and a create still looking for its record says what may have made it (evidence.ts). Then
    // the signal does what it would have: at once if it comes again or nothing is in flight,
    // else once the operations in flight have ended (their last look), at the latest after
    // CANCEL_GRACE_MS, so a process told to stop never outlives its caller. The engine ends
    // every command by sending its providers a SIGINT and waits up to 5 s before a SIGKILL: an
    // idle process must go at once, or every command would take that long to finish.
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        const end = () => process.kill(process.pid, signal);
        if (inFlight === 0) return end();
        cancelOperations();
        idle = () => setTimeout(end, ANSWER_MS);
        setTimeout(end, CANCEL_GRACE_MS).unref();
      });
  }
  Object.assign(target, redacting(methods, unknownStackKeys(givenKeys(req.config))));
}

/** Methods running now, and what to do once none is (a signal waiting for them to end). */
let inFlight = 0;
let idle: (() => void) | undefined;

async function counted<R>(call: () => Promise<R>): Promise<R> {
  inFlight++;
  try {
    return await call();
  } finally {
    if (--inFlight === 0) idle?.();
  }
}

/**
 * The methods with the key's text out of what they tell a person: each failure, and each
 * check failure's reason (both may quote what the service holds). Results are data: as they are.
 * Each failure is said once (by the engine, under its resource), its trace kept for debugging.
 * `refused`: why the stack's config is refused (a `cims:` key nothing reads), which check says
 * before anything else; the other methods serve refresh and destroy, which run with the config
 * the state recorded, so a fixed typo could not reach them until the next `up`.
 */
function redacting(methods: Methods, refused: string | undefined): Methods {
  // hostPrints: the host prints this method's failures (not create's or update's).
  const guard =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>, hostPrints = true) =>
    (...args: A): Promise<R> =>
      counted(() => method(...args)).catch(async (err: unknown) => {
        const redacted = redactError(err);
        await traceFailure(redacted);
        if (hostPrints) passedOn.add(hostText(redacted));
        throw redacted;
      });
  return {
    check: guard(async (olds, news) => {
      if (refused) throw new ConfigurationError(refused);
      const result = await methods.check(olds, news);
      return result.failures ? { ...result, failures: result.failures.map((f) => ({ ...f, reason: redactText(f.reason) })) } : result;
    }),
    diff: guard(methods.diff),
    create: guard(methods.create, false),
    read: guard(methods.read),
    update: guard(methods.update, false),
    delete: guard(methods.delete),
  };
}
