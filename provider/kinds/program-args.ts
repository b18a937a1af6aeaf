// A record as the arguments of a program that adopts it: what `cims-import` writes and what
// the plugin's `pulumi import` answers, from one conversion (../../api/wire.ts programFields)
// and each kind's import row (its identity and scope).
import type { BodyContract } from "../../api/contract";
import { withoutMark } from "../methods/mark";
import { programFields } from "../../api/wire";
import { type Kind, kind } from "./registry";
import type { ApiRecord } from "../../api/guards";

type Args = Record<string, unknown>;

export interface Scope {
  projectId: number;
  regionId: number;
}

/** Arguments of a resource's contract from a record (every field it holds), as a program writes them. */
export function argsFromRecord(contract: BodyContract, record: ApiRecord, notes: string[] = [], where = ""): Args {
  return programFields(contract.fields, record, { notes, where }, withoutMark);
}

const scopeOf = (record: ApiRecord, scope: Scope) => ({
  projectId: Number(record.project_id ?? scope.projectId),
  regionId: Number(record.region_id ?? scope.regionId),
});

/** A resource's arguments from its record, as its descriptor's import row writes them. */
export function argsOf(type: Kind, record: ApiRecord, scope: Scope, notes: string[] = []): Args {
  const { contract, import: row } = kind(type).descriptor;
  const table = row.only ? { fields: Object.fromEntries(row.only.map((name) => [name, contract.fields[name]])) } : contract;
  return row.args(record, argsFromRecord(table, record, notes), scopeOf(record, scope));
}
