// The item routes of a record the service creates by task and tags (subnets, images): GET by
// id, PATCH (synchronous; the service's own tags kept, the user's merged) and DELETE (by task).
// Each collection adds what is its own: a rule across the record and the PATCH, a DELETE the
// service refuses.
import type { BodyContract } from "../../api/contract";
import { applyUpdate } from "../../api/contract";
import { apiTimestamp } from "../clock";
import type { CollectionName } from "../store/shapes";
import { assertUnlocked, type Call, deleteByTask, findScoped, type Reply, type RequestContext, type Services } from "../router";
import { mergeTags } from "../tags";
import type { ApiRecord } from "../../api/guards";

export interface TaggedItem {
  collection: CollectionName;
  /** The path's parameter naming the record (`subnet_id`). */
  idParam: string;
  /** The record's name in messages (`Subnet`). */
  what: string;
  contract: BodyContract;
  /** A rule across the record and a valid, canonical PATCH body; throws the service's answer. */
  checkPatch?(record: ApiRecord, body: ApiRecord): void;
  /** Refuses a DELETE the service refuses; throws its answer. */
  checkDelete?(record: ApiRecord, services: Services, ctx: RequestContext): void;
}

export function taggedItem(item: TaggedItem) {
  const find = (services: Services, ctx: RequestContext): ApiRecord => findScoped(services, ctx, item.collection, item.idParam, item.what);
  return {
    find,
    get: (services: Services, call: Call): Reply => ({ status: 200, body: find(services, call) }),
    patch(services: Services, call: Call): Reply {
      const record = find(services, call);
      const body = call.checked();
      assertUnlocked(services, item.collection, String(record.id), item.what);
      item.checkPatch?.(record, body);
      const updated: ApiRecord = { ...applyUpdate(item.contract, record, body, { mergeTags }), updated_at: apiTimestamp(call.now) };
      services.store.put(item.collection, updated);
      services.store.persist();
      return { status: 200, body: updated };
    },
    remove(services: Services, call: Call): Reply {
      const record = find(services, call);
      item.checkDelete?.(record, services, call);
      return deleteByTask(services, call, record, item.collection, item.what);
    },
  };
}
