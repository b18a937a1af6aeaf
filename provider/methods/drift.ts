// Where the program and a record differ: the fields that would replace, and those an update
// changes. Adoption (what an adopted record needs) and the settings resources' creates ask
// this (and LbPoolSettings' update). An update of the others writes only what changed
// between the state and the program: drift shows after a refresh, in the diff.
import type { Inputs } from "./schema";
import { containsUnknown } from "./schema";
import type { Table } from "./table";
import type { ApiRecord } from "../../api/guards";

/** Fields of the program that differ from the record: those that would replace, and those a PATCH changes. */
export function differences(table: Table, record: ApiRecord, inputs: Inputs): { replaces: string[]; updates: string[] } {
  const service = table.fromRecord(record, inputs);
  const replaces: string[] = [];
  const updates: string[] = [];
  for (const rule of table.rules) {
    // What the service's records do not hold (create-only instructions, the provider's own
    // inputs), and what the program leaves to the service, cannot differ.
    if (!(rule.name in service) || (inputs[rule.name] === undefined && rule.autoWhenOmitted)) continue;
    // A value not known until apply (preview) is no value to compare yet.
    if (containsUnknown(inputs[rule.name])) continue;
    if (rule.equal ? rule.equal(service[rule.name], inputs[rule.name]) : service[rule.name] === inputs[rule.name]) continue;
    (rule.replaces ? replaces : updates).push(rule.name);
  }
  return { replaces, updates };
}
