// Quota notification threshold: PUT (spec, synchronous upsert), GET and DELETE (public API
// reference; DELETE resets the threshold to the service's default, 80).
import { PATHS } from "../../api/paths";
import { notFound } from "../errors";
import { bodyObject, intParam, requireValid, type RequestContext, type Router, type Services } from "../router";
import type { Collection } from "./collection";
import type { ApiRecord } from "../state";
import { canonicalDateTime } from "../../api/canonical";
import { validateQuotaPut } from "../validation";
import { applyUpdate, QuotaThreshold as contract, recordFields } from "../../api/contract";

export const DEFAULT_THRESHOLD = 80;

function registerQuotaRoutes(router: Router, services: Services): void {
  router.add("GET", PATHS.notificationThreshold, (ctx) => ({ status: 200, body: find(services, ctx) }));
  router.add("PUT", PATHS.notificationThreshold, (ctx) => put(services, ctx));
  router.add("DELETE", PATHS.notificationThreshold, (ctx) => reset(services, ctx));
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  const clientId = intParam(ctx, "client_id");
  const setting = services.store.get("client_quotas", clientId);
  if (!setting) throw notFound("Quota notification setting of client", clientId);
  return setting;
}

function put(services: Services, ctx: RequestContext) {
  const clientId = intParam(ctx, "client_id");
  const raw = bodyObject(ctx);
  requireValid(validateQuotaPut(raw, services.store.get("client_quotas", clientId)));
  // The service keeps times in UTC without a zone suffix, and quota numbers as integers.
  const body: Record<string, unknown> =
    typeof raw.last_sending === "string" ? { ...raw, last_sending: canonicalDateTime(raw.last_sending) } : raw;
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

/** QuotaThreshold: the routes that serve quota settings. */
export const QuotaThreshold: Collection = { routes: registerQuotaRoutes };
