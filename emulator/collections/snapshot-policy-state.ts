// Snapshot lifecycle policies: GET (public API reference) and PATCH of name/status (spec,
// synchronous). Volumes are listed in the answer only with need_volumes=true; without it the
// field is there, empty (the vendor's model requires it).
import { apiTimestamp } from "../clock";
import { type Call, findScoped, listPage, listScoped, type RequestContext, type Services } from "../router";
import type { EmulatedResource } from "./emulated-resource";
import { applyUpdate } from "../../api/contract";
import { SnapshotPolicyState as contract } from "../../api/contract/snapshot-policy-state";
import type { ApiRecord } from "../../api/guards";

function find(services: Services, ctx: RequestContext): ApiRecord {
  return findScoped(services, ctx, "lifecycle_policies", "policy_id", "Lifecycle policy", "int");
}

function view(policy: ApiRecord, ctx: RequestContext): ApiRecord {
  if (ctx.query.get("need_volumes") === "true") return { ...policy, volumes: policy.volumes ?? [] };
  return { ...policy, volumes: [] };
}

function patch(services: Services, call: Call) {
  const policy = find(services, call);
  const body = call.checked();
  const updated: ApiRecord = applyUpdate(contract, policy, body);
  if (Object.keys(body).length > 0) updated.updated_at = apiTimestamp(call.now);
  services.store.put("lifecycle_policies", updated);
  services.store.persist();
  return { status: 200, body: view(updated, call) };
}

/** SnapshotPolicyState: the lifecycle policies, and what the service does on each of their calls. */
export const SnapshotPolicyState: EmulatedResource = {
  store: { name: "lifecycle_policies", key: "id", complete: (record) => ({ volumes: [], ...record }) },
  contract,
  operations: {
    list: (services, ctx) =>
      listPage(
        ctx,
        listScoped(services, ctx, "lifecycle_policies").map((p) => view(p, ctx)),
      ),
    get: (services, ctx) => ({ status: 200, body: view(find(services, ctx), ctx) }),
    update: patch,
  },
};
