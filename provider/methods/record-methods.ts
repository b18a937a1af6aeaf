// update, delete and read of the resources that own their record (Subnet, BaremetalImage):
// the same three steps for both, over the record's path, its scope's list and its table.
import type * as pulumi from "@pulumi/pulumi";
import { adoptedInThisRun, differences } from "./adopt";
import { log } from "./context";
import { coalescedGet } from "./coalesce";
import { changedFields } from "./diff";
import { deleteViaTask, patchOrRead, readOrGone, settlePending, withContext } from "./lifecycle";
import type { Inputs } from "./schema";
import type { Table } from "./table";

export interface OwnedRecord {
  table: Table;
  /** How messages name the resource: `Subnet "app" (<id>)`. */
  what: (inputs: Inputs, id?: string) => string;
  /** The record's path. */
  one: (inputs: Inputs, id: string) => string;
  /** The scope's list path, for coalesced refresh reads. */
  list: (inputs: Inputs) => string;
}

export function ownedRecordMethods(r: OwnedRecord) {
  return {
    /**
     * PATCH the fields that changed (after waiting for a create still running), or read back.
     * The answer is the record as the service now holds it: an in-place field that still
     * differs from the program (changed outside Pulumi since the last refresh) is PATCHed
     * too, so after `up` the service holds the program's values and the next preview is clean.
     */
    async update(id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
      return withContext(r.what(news, id), async () => {
        await settlePending(r.what(news, id), olds);
        const path = r.one(news, id);
        const changed = changedFields(olds, news, r.table.rules).map((rule) => rule.name);
        let record = await patchOrRead(path, r.table.patch(olds, news, changed));
        const { updates: drifted } = differences(r.table, record, news);
        if (drifted.length > 0) {
          log(`${r.what(news, id)}: ${drifted.join(", ")} changed outside Pulumi: set back to the program's value`);
          record = await patchOrRead(path, r.table.patch(r.table.fromRecord(record, news), news, drifted));
        }
        return { outs: r.table.outputs(news, record, []) };
      });
    },
    /** DELETE and wait; a record this run's replacement adopted is left. */
    async delete(id: string, props: Inputs): Promise<void> {
      if (adoptedInThisRun(r.what(props, id), id)) return;
      await deleteViaTask(r.what(props, id), r.one(props, id), props);
    },
    /** Refresh, through the scope's list when reads coalesce. */
    async read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
      return readOrGone(id, props, r.one(props, id), (record) => r.table.fromRecord(record, props), r.table.rules, {
        get: () => coalescedGet(r.list(props), id, r.one(props, id)),
      });
    },
  };
}
