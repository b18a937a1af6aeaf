// What configure() does in the provider process, for every kind: take the stack config,
// then put the kind's methods on the deserialized shim object.
import type * as pulumi from "@pulumi/pulumi";
import { CANCEL_LOOK_MS } from "../client/tasks";
import { cancelOperations, redactError, redactText, setConfig, setLogSink } from "./context";
import type { KindDiff } from "./diff";
import { engineAddress, engineWarnings } from "./engine-log";

/** A kind's methods, as the dynamic shim and the plugin call them; diff says what changed. */
export type Methods = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "create" | "read" | "update" | "delete">> & {
  diff(...args: Parameters<NonNullable<pulumi.dynamic.ResourceProvider["diff"]>>): Promise<KindDiff>;
};

let sinkSet = false;

/** How long a cancelled process lets its waits take their last look (tasks.ts: CANCEL_LOOK_MS) before it ends. */
const CANCEL_GRACE_MS = CANCEL_LOOK_MS + 5_000;

export function installMethods(target: object, methods: Methods, req: pulumi.dynamic.ConfigureRequest): void {
  setConfig((key) => req.config.get(key));
  if (!sinkSet) {
    sinkSet = true;
    // Progress lines stay on stdout (the engine shows them as they come); warnings go to the
    // engine's log, so the CLI shows them as warnings.
    const address = engineAddress();
    const toEngine = address ? engineWarnings(address) : undefined;
    setLogSink((line, severity) => {
      if (severity === "warning" && toEngine) return toEngine(line);
      process.stdout.write(`${line}\n`);
    });
    // The engine's Cancel never reaches a dynamic provider (its server answers it and does
    // nothing); a SIGINT or SIGTERM sent to this process (a job runner cancelling the run, a
    // terminal's Ctrl-C where the process shares its group) is that cancel: every wait ends
    // and a create still looking for its record says what may have made it (ours.ts). Then
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
        idle = end;
        setTimeout(end, CANCEL_GRACE_MS).unref();
      });
  }
  Object.assign(target, redacting(methods));
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
 */
function redacting(methods: Methods): Methods {
  const guard =
    <A extends unknown[], R>(method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      counted(() => method(...args)).catch((err: unknown) => {
        throw redactError(err);
      });
  return {
    check: guard(async (olds, news) => {
      const result = await methods.check(olds, news);
      return result.failures ? { ...result, failures: result.failures.map((f) => ({ ...f, reason: redactText(f.reason) })) } : result;
    }),
    diff: guard(methods.diff),
    create: guard(methods.create),
    read: guard(methods.read),
    update: guard(methods.update),
    delete: guard(methods.delete),
  };
}
