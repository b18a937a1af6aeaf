// Quota notification threshold: PUT (spec, synchronous upsert), GET and DELETE (public API
// reference; DELETE resets the threshold to the service's default, 80).
import { notFound } from "../http-errors";
import { type Call, intParam, type RequestContext, type Services } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { contractSchema, type InvalidFields, wireFailures } from "../../api/schema";
import { applyUpdate, recordFields } from "../../api/contract";
import { QuotaThreshold as contract } from "../../api/contract/quota-threshold";
import { type ApiRecord, isRecord } from "../../api/guards";

export const DEFAULT_THRESHOLD = 80;

/**
 * PUT is a whole setting (threshold required) whose fields all replace in place. `held`: the
 * client's setting as stored. The quota members it holds are members the service knows, also
 * those our contract does not (a seed of a service newer than the contract): a PUT may carry
 * them back.
 */
export function validateQuotaPut(body: unknown, held?: ApiRecord): InvalidFields {
  const message = isRecord(held?.last_message) ? held.last_message : {};
  const regional = Array.isArray(message.regional_quotas) ? message.regional_quotas : [];
  const schema = contractSchema(contract, {
    face: "wire",
    mode: "create",
    readOnly: Object.keys(contract.record),
    held: {
      GlobalQuotas: isRecord(message.global_quotas) ? Object.keys(message.global_quotas) : [],
      RegionalQuotas: [...new Set(regional.flatMap((r: unknown) => (isRecord(r) ? Object.keys(r) : [])))],
    },
  });
  return wireFailures(schema, body);
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  const clientId = intParam(ctx, "client_id");
  const setting = services.store.get("client_quotas", clientId);
  if (!setting) throw notFound("Quota notification setting of client", clientId);
  return setting;
}

function put(services: Services, call: Call) {
  const clientId = intParam(call, "client_id");
  // The service keeps times in UTC without a zone suffix, and quota numbers as integers.
  const body = call.checked();
  // An upsert: the fields the PUT gives replace; those it leaves out keep what the client's
  // setting holds (for a new one, their absent values).
  const current = services.store.get("client_quotas", clientId) ?? { client_id: clientId, ...recordFields(contract, {}) };
  const record: ApiRecord = applyUpdate(contract, current, body);
  services.store.put("client_quotas", record);
  services.store.persist();
  return { status: 200, body: record };
}

function reset(services: Services, ctx: RequestContext) {
  const setting = find(services, ctx);
  services.store.put("client_quotas", { ...setting, threshold: DEFAULT_THRESHOLD });
  services.store.persist();
  return { status: 204 };
}

/** QuotaThreshold: each client's notification threshold (by client, not scoped), and what the service does on each of its calls. */
export const QuotaThreshold: EmulatedResource = {
  store: { name: "client_quotas", key: "client_id", integers: ["client_id"] },
  contract,
  operations: { get: (services, ctx) => ({ status: 200, body: find(services, ctx) }), update: put, delete: reset },
  bodies: { update: (body, services, ctx) => validateQuotaPut(body, services.store.get("client_quotas", intParam(ctx, "client_id"))) },
};
