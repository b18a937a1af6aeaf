// Request-body rules: the contract's field tables (api/contract) read as snake_case request
// checks, answering field path -> messages ({} when valid). Every rule and its words come
// from api/, so the emulator refuses exactly what the provider refuses at preview. Unknown
// fields are errors, never ignored, so a client's camelCase leak (`networkId`) or typo
// surfaces here instead of being silently dropped.
//
// Bodies come from lossless-json: safe integers are numbers, larger ones bigints, so an
// integer is either; nothing is coerced ("true" is not a boolean, "80" not an integer).
import type { BodyContract, ObjectType } from "../api/contract";
import { contractSchema, type InvalidFields, wireFailures } from "../api/schema";
import { canonicalValue } from "../api/canonical";
import { toSnake } from "../api/names";

export type { InvalidFields };

type JsonObject = Record<string, unknown>;

/**
 * A request body's check for a contract (each collection makes its own): `create`, a whole new
 * record (required fields enforced); `patch`, an update of some fields; `readOnly`, fields the
 * request may not carry (the record's own).
 */
export const validator =
  (contract: BodyContract | ObjectType, mode: "create" | "patch", readOnly: readonly string[] = []) =>
  (body: unknown): InvalidFields =>
    wireFailures(contractSchema(contract, { face: "wire", mode, readOnly }), body);

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
