// What configure() does in the provider process, for every kind: take the stack config,
// then put the kind's methods on the deserialized shim object.
import type * as pulumi from "@pulumi/pulumi";
import { setConfig } from "./context";

export type Methods = Required<Pick<pulumi.dynamic.ResourceProvider, "check" | "diff" | "create" | "read" | "update" | "delete">>;

export function installMethods(target: object, methods: Methods, req: pulumi.dynamic.ConfigureRequest): void {
  setConfig((key) => req.config.get(key));
  Object.assign(target, methods);
}
