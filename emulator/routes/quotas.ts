// Quota notification threshold: PUT (spec, synchronous upsert), GET and DELETE (public API
// reference; DELETE resets the threshold to the service's default, 80).
import { notFound } from "../errors";
import { bodyObject, intParam, requireValid, type RequestContext, type Router, type Services } from "../router";
import type { ApiRecord } from "../state";
import { validateQuotaPut } from "../validation";

const PATH = "/cloud/v2/client_quotas/:client_id/notification_threshold";
export const DEFAULT_THRESHOLD = 80;

export function registerQuotaRoutes(router: Router, services: Services): void {
  router.add("GET", PATH, (ctx) => ({ status: 200, body: find(services, ctx) }));
  router.add("PUT", PATH, (ctx) => put(services, ctx));
  router.add("DELETE", PATH, (ctx) => reset(services, ctx));
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  const clientId = intParam(ctx, "client_id");
  const setting = services.store.get("client_quotas", clientId);
  if (!setting) throw notFound("Quota notification setting of client", clientId);
  return setting;
}

function put(services: Services, ctx: RequestContext) {
  const clientId = intParam(ctx, "client_id");
  const body = bodyObject(ctx);
  requireValid(validateQuotaPut(body));
  const current = services.store.get("client_quotas", clientId);
  const record: ApiRecord = {
    client_id: clientId,
    threshold: body.threshold,
    last_message: body.last_message ?? current?.last_message ?? { global_quotas: {}, regional_quotas: [] },
    last_sending: "last_sending" in body ? body.last_sending : (current?.last_sending ?? null),
  };
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
