// A lookup of the default face, run in the program's process (../resources/lookup.ts loads this
// at the first call): the stack's `cims:*` config as the resources read it (the same keys and
// environment variables), then run.ts. A failure is the program's error, its message the lookup's,
// with the key cut out as the plugin cuts it.
import * as pulumi from "@pulumi/pulumi";
import { isLookupName } from "../../api/lookups";
import { redactError, setConfig } from "../methods/context";
import { runLookup } from "./run";

let configured = false;

/** The arguments without those left undefined (an optional argument not given). */
const given = (args: object): Record<string, unknown> => Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));

export async function lookupInProgram(name: string, args: object): Promise<Record<string, unknown>> {
  if (!isLookupName(name)) throw new Error(`pulumi-cims has no lookup "${name}"`);
  if (!configured) {
    configured = true;
    setConfig((key) => pulumi.runtime.getConfig(key));
  }
  // As the plugin's failures are: a service's answer quoted in a message never shows the key.
  return runLookup(name, given(args)).catch((err: unknown) => {
    throw asRunError(redactError(err));
  });
}

/**
 * A failed lookup as the program's error: a RunError, which the Node SDK reports by its message
 * alone, as it does a resource's failure, since the message says what to change and a stack
 * says nothing to the program's author. Its stack is that one line, no frames: the SDK's
 * `cmd/run` still formats every uncaught error with util.inspect for its trace span (a RunError
 * too), and Node 20's util.inspect spends seconds to minutes on frames it marks as
 * `node_modules` code (the SDK's source maps give its own frames paths like
 * `node_modules/@pulumi/<file>.ts`): a preview whose lookup failed spun until cancelled, and an
 * `up` took 50 s and 30 s of CPU to report it.
 */
function asRunError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const error = new pulumi.RunError(message);
  error.stack = `${error.name}: ${message}`;
  return error;
}
