// The gRPC library and the generated protocol stubs of Pulumi's engine, from the installed
// @pulumi/pulumi (a peer dependency): its stubs check `instanceof` against its own
// google-protobuf and grpc-js, so those are loaded from its location, never a copy of ours.
// Both faces speak to the engine: the plugin serves its provider protocol (plugin/), and the
// dynamic face sends its warnings to the engine's log (methods/engine-log.ts), so this sits
// below both, beside config.ts and version.ts.
import * as path from "node:path";

const base = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const fromPulumi = (id: string): unknown => require(require.resolve(id, { paths: [base] }));

export const grpc = fromPulumi("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
export const structpb = fromPulumi(
  "google-protobuf/google/protobuf/struct_pb",
) as typeof import("google-protobuf/google/protobuf/struct_pb");
export const emptypb = fromPulumi("google-protobuf/google/protobuf/empty_pb") as typeof import("google-protobuf/google/protobuf/empty_pb");
export const anypb = fromPulumi("google-protobuf/google/protobuf/any_pb") as typeof import("google-protobuf/google/protobuf/any_pb");
export * as providerRpc from "@pulumi/pulumi/proto/provider_grpc_pb";
export * as providerPb from "@pulumi/pulumi/proto/provider_pb";
export * as pluginPb from "@pulumi/pulumi/proto/plugin_pb";
export * as statusPb from "@pulumi/pulumi/proto/status_pb";
export * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
export * as enginePb from "@pulumi/pulumi/proto/engine_pb";
