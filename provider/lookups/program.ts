// A lookup of the default face, run in the program's process (../resources/lookup.ts loads this
// at the first call): the stack's `cims:*` config as the resources read it (the same keys and
// environment variables), then run.ts. A failure is the program's error, its message the lookup's.
import * as pulumi from "@pulumi/pulumi";
import { isLookupName } from "../../api/lookups";
import { setConfig } from "../methods/context";
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
  return runLookup(name, given(args));
}
