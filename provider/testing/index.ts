// Test-only resources, exported as `pulumi-cims/testing`. Not part of the CIMS API surface.
export { Echo, type EchoArgs } from "./echo";
