// THE FIRST FROZEN DOOR. The serialized providers that earlier versions wrote run
// `require("pulumi-cims/provider/resources/install").install(this, "<Kind>", req)` in the
// provider process, and those texts stay in the state of every stack they wrote until an up
// rewrites each resource. So this file's path, its `install(target, kind, req)` signature and
// the kind names must never change; package.json exports this path and, for today's shorter
// texts (shim.ts), dynamic.ts, which comes through here too, and no other internal one.
// It takes the stack config, then puts the real provider methods (../methods/) on the
// deserialized shim object.
import type * as pulumi from "@pulumi/pulumi";
import { installMethods, type Methods } from "../methods/install";
import type * as Registry from "../kinds/registry";

/**
 * The test-only Echo (`pulumi-cims/testing`) came through this door until it got its own
 * (../testing/install.ts): stacks that hold one still name it here.
 */
const echo = (): Methods => (require("../testing/echo-methods") as typeof import("../testing/echo-methods")).echoMethods;

/** The kinds, loaded when a resource is configured: requiring the door alone loads none of them. */
function registry(): typeof Registry {
  const loaded: typeof Registry = require("../kinds/registry");
  return loaded;
}

export async function install(target: object, kind: string, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  if (kind === "Echo") return installMethods(target, echo(), req);
  const { isKind, KIND_NAMES, kind: kindOf } = registry();
  if (!isKind(kind)) {
    const manifest: unknown = require("pulumi-cims/package.json");
    const version = typeof manifest === "object" && manifest !== null && "version" in manifest ? String(manifest.version) : "(unknown)";
    throw new Error(
      `pulumi-cims: this stack's state holds a resource of kind "${kind}", which pulumi-cims ${version} (installed next to the ` +
        `program) does not know. Kinds it knows: ${[...KIND_NAMES, "Echo"].join(", ")}. Install the pulumi-cims that wrote this state ` +
        "(see package-lock.json's history), then run the command again.",
    );
  }
  installMethods(target, kindOf(kind).methods, req);
}
