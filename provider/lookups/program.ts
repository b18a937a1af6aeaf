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
 * says nothing to the program's author. It also keeps the failure from the SDK's stack printer:
 * Node 20's util.inspect never returns on a stack frame in `node_modules/@pulumi/<file>.ts`
 * (the SDK's source maps give its own frames such paths, and a `getXOutput` failure, thrown in
 * an apply, has them), so a preview whose lookup failed spun until cancelled.
 */
function asRunError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  return new pulumi.RunError(message);
}
