// The plugin's property values (provider/plugin/values.ts): what the engine sends becomes what
// the methods expect, and what the methods return is encodable as a protobuf Struct.
import { UNKNOWN } from "../../../../provider/methods/schema";
import { structpb } from "../../../../provider/proto";
import { fromStruct, toStruct } from "../../../../provider/plugin/values";

test("an unset Struct (Read on import) is an empty object", () => {
  expect(fromStruct(undefined)).toEqual({});
});

test("the engine's typed unknowns, at any depth, become the one unknown the methods know", () => {
  const sent = structpb.Struct.fromJavaScript({
    networkId: "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // an unknown string
    members: [{ subnetId: "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", weight: 1 }],
    name: "1c4a061d-not-an-unknown",
  });
  expect(fromStruct(sent)).toEqual({ networkId: UNKNOWN, members: [{ subnetId: UNKNOWN, weight: 1 }], name: "1c4a061d-not-an-unknown" });
});

test("what goes back holds no undefined and no bigint: dropped from objects, null in lists, decimal strings", () => {
  const struct = toStruct({ a: undefined, b: [1, undefined], limit: 9223372036854775807n, nested: { c: undefined, d: "x" } });
  expect(struct.toJavaScript()).toEqual({ b: [1, null], limit: "9223372036854775807", nested: { d: "x" } });
});
