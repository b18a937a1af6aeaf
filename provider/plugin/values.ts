// Property values between the engine's protobuf Structs and the provider methods' plain
// objects. The engine sends plain values (the plugin does not accept secrets or resources),
// but any field may be unset, and an unknown may come as any of the engine's typed sentinels;
// what goes back must hold no `undefined` and no bigint, which Struct cannot encode.
import { isRecord } from "../../api/guards";
import { UNKNOWN } from "../methods/schema";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { structpb } from "../proto";

/** The engine's unknown values by the type they stand for (sdk/go/common/resource/plugin/rpc.go). */
const UNKNOWNS = new Set([
  UNKNOWN,
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

type Json = Record<string, unknown>;
/** What Struct encodes. */
type StructValue = null | number | string | boolean | StructValue[] | { [key: string]: StructValue };

/**
 * Every typed unknown as the one the methods know. In place: `toJavaScript` made the value
 * for this call alone, and a refresh converts two Structs per resource, so copying them again
 * would only feed the garbage collector.
 */
function normalized(value: unknown): unknown {
  if (typeof value === "string") return UNKNOWNS.has(value) ? UNKNOWN : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normalized(value[i]);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value)) value[key] = normalized(value[key]);
  }
  return value;
}

/** A request's Struct as an object; an unset one (Read on import) is empty. */
export function fromStruct(struct: Struct | undefined): Json {
  const value = struct ? normalized(struct.toJavaScript()) : {};
  if (!isRecord(value)) throw new TypeError("the engine sent properties that are not an object");
  return value;
}

/** What Struct can encode: no undefined (dropped from objects, null in lists), bigints as decimal strings. */
function encodable(value: unknown): StructValue {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : encodable(v)));
  if (typeof value === "object" && value !== null) return encodableObject(value);
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  return null;
}

function encodableObject(value: object): { [key: string]: StructValue } {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, encodable(v)]),
  );
}

export function toStruct(value: Json | undefined): Struct {
  return structpb.Struct.fromJavaScript(encodableObject(value ?? {}));
}
