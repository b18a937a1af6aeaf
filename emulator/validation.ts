// Request-body rules: the contract's field tables (api/contract) read as snake_case request
// checks, answering field path -> messages ({} when valid). Every rule and its words come
// from api/, so the emulator refuses exactly what the provider refuses at preview. Unknown
// fields are errors, never ignored, so a client's camelCase leak (`networkId`) or typo
// surfaces here instead of being silently dropped.
//
// Bodies come from lossless-json: safe integers are numbers, larger ones bigints, so an
// integer is either; nothing is coerced ("true" is not a boolean, "80" not an integer).
import { BaremetalImage, HealthMonitor, LbPoolSettings, QuotaThreshold, SnapshotPolicyState, Subnet } from "../api/contract";
import type { BodyContract, ObjectType } from "../api/contract";
import { contractSchema, type InvalidFields, wireFailures } from "../api/schema";
import { canonicalValue } from "../api/canonical";
import { toSnake } from "../api/names";

export type { InvalidFields };

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** `create`: a whole new record (required fields enforced); `patch`: an update of some fields. */
const validator =
  (contract: BodyContract | ObjectType, mode: "create" | "patch", readOnly: readonly string[] = []) =>
  (body: unknown): InvalidFields =>
    wireFailures(contractSchema(contract, { face: "wire", mode, readOnly }), body);

export const validateSubnetCreate = validator(Subnet, "create");
export const validateSubnetPatch = validator(Subnet, "patch", Object.keys(Subnet.record));
export const validateImageCreate = validator(BaremetalImage, "create");
export const validateImagePatch = validator(BaremetalImage, "patch", Object.keys(BaremetalImage.record));
export const validatePoolPatch = validator(LbPoolSettings, "patch", Object.keys(LbPoolSettings.record));
/** POST .../healthmonitor (the vendor SDK's): a whole health monitor. */
export const validateHealthmonitorCreate = validator(HealthMonitor, "create");
export const validatePolicyPatch = validator(SnapshotPolicyState, "patch", Object.keys(SnapshotPolicyState.record));
/**
 * PUT is a whole setting (threshold required) whose fields all replace in place. `held`: the
 * client's setting as stored. The quota members it holds are members the service knows, also
 * those our contract does not (a seed of a service newer than the contract): a PUT may carry
 * them back.
 */
export function validateQuotaPut(body: unknown, held?: JsonObject): InvalidFields {
  const message = isObject(held?.last_message) ? held.last_message : {};
  const regional = Array.isArray(message.regional_quotas) ? message.regional_quotas : [];
  const schema = contractSchema(QuotaThreshold, {
    face: "wire",
    mode: "create",
    readOnly: Object.keys(QuotaThreshold.record),
    held: {
      GlobalQuotas: isObject(message.global_quotas) ? Object.keys(message.global_quotas) : [],
      RegionalQuotas: [...new Set(regional.flatMap((r: unknown) => (isObject(r) ? Object.keys(r) : [])))],
    },
  });
  return wireFailures(schema, body);
}

/**
 * A valid body in the spelling the service stores: canonical addresses, uuids and times;
 * unordered lists in one order; enum values as records spell them (`pc` is `i440`).
 */
export function canonicalBody(body: JsonObject, contract: BodyContract): JsonObject {
  const out: JsonObject = { ...body };
  for (const [camel, field] of Object.entries(contract.fields)) {
    const wire = toSnake(camel);
    if (out[wire] !== undefined) out[wire] = canonicalValue(out[wire], field.type, toSnake, "record");
  }
  return out;
}
