// Snapshot lifecycle policies: GET (public API reference) and PATCH of name/status (spec,
// synchronous). Volumes are listed in the answer only with need_volumes=true; without it the
// field is there, empty (the vendor's model requires it).
import { PATHS } from "../../api/paths";
import { apiTimestamp } from "../clock";
import { bodyObject, findScoped, listPage, listScoped, requireValid, type RequestContext, type Router, type Services } from "../router";
import type { Collection } from "./collection";
import type { ApiRecord } from "../state";
import { validatePolicyPatch } from "../validation";
import { applyUpdate, SnapshotPolicyState as contract } from "../../api/contract";

function registerPolicyRoutes(router: Router, services: Services): void {
  router.add("GET", PATHS.policies, (ctx) =>
    listPage(
      ctx,
      listScoped(services, ctx, "lifecycle_policies").map((p) => view(p, ctx)),
    ),
  );
  router.add("GET", PATHS.policy, (ctx) => ({ status: 200, body: view(find(services, ctx), ctx) }));
  router.add("PATCH", PATHS.policy, (ctx) => patch(services, ctx));
}

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, "lifecycle_policies", "policy_id", "Lifecycle policy", "int");
}

function view(policy: ApiRecord, ctx: RequestContext): ApiRecord {
  if (ctx.query.get("need_volumes") === "true") return { ...policy, volumes: policy.volumes ?? [] };
  return { ...policy, volumes: [] };
}

function patch(services: Services, ctx: RequestContext) {
  const policy = find(services, ctx);
  const body = bodyObject(ctx);
  requireValid(validatePolicyPatch(body));
  const updated: ApiRecord = applyUpdate(contract, policy, body);
  if (Object.keys(body).length > 0) updated.updated_at = apiTimestamp(ctx.now);
  services.store.put("lifecycle_policies", updated);
  services.store.persist();
  return { status: 200, body: view(updated, ctx) };
}

/** SnapshotPolicyState: the routes that serve policies. */
export const SnapshotPolicyState: Collection = { routes: registerPolicyRoutes };
