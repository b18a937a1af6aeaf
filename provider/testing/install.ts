// The test-only Echo's door (`pulumi-cims/testing/install`), kept out of the production
// registry in ../resources/install.ts.
import type * as pulumi from "@pulumi/pulumi";
import { installMethods } from "../methods/install";
import { echoMethods } from "./echo-methods";

export async function install(target: object, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  installMethods(target, echoMethods, req);
}
