// Snapshot lifecycle policies: GET (public API reference) and PATCH of name/status (spec,
// synchronous). Volumes are listed in the answer only with need_volumes=true; without it the
// field is there, empty (the vendor's model requires it).
import { apiTimestamp } from "../clock";
import { bodyObject, findScoped, listPage, listScoped, requireValid, type RequestContext, type Router, type Services } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { validator } from "../validation";
import { applyUpdate } from "../../api/contract";
import { SnapshotPolicyState as contract } from "../../api/contract/snapshot-policy-state";
import type { ApiRecord } from "../../api/guards";

export const validatePolicyPatch = validator(contract, "patch", Object.keys(contract.record));

function registerPolicyRoutes(router: Router, services: Services): void {
  router.add("GET", contract.paths.collection, (ctx) =>
    listPage(
      ctx,
      listScoped(services, ctx, "lifecycle_policies").map((p) => view(p, ctx)),
    ),
  );
  router.add("GET", contract.paths.item, (ctx) => ({ status: 200, body: view(find(services, ctx), ctx) }));
  router.add("PATCH", contract.paths.item, (ctx) => patch(services, ctx));
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

/** SnapshotPolicyState: the lifecycle policies, and the routes that serve them. */
export const SnapshotPolicyState: EmulatedResource = {
  store: { name: "lifecycle_policies", key: "id", complete: (record) => ({ volumes: [], ...record }) },
  routes: registerPolicyRoutes,
};
