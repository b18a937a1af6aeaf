// THE DYNAMIC FACE'S DOOR. Every dynamic resource's serialized provider (shim.ts) is
// `exports.handler=()=>require('pulumi-cims/dynamic').<Kind>`, and that text is stored twice in
// the state of every stack that writes it. So this module's package path (package.json
// exports it), and that each kind's provider object is the property of its kind's name, must
// never change. The host caches one provider per text and process and calls its configure()
// once, before any other method: it takes the stack config and puts the real methods on the
// object, through install.ts, the door the texts of earlier versions still name.
import type * as pulumi from "@pulumi/pulumi";
import { install } from "./install";

const made = new Map<string, object>();

/** A kind's provider object: only configure() until the host calls it. */
function providerOf(kind: string): object {
  let provider = made.get(kind);
  if (!provider) {
    provider = {
      configure(this: object, req: pulumi.dynamic.ConfigureRequest): Promise<void> {
        return install(this, kind, req);
      },
    };
    made.set(kind, provider);
  }
  return provider;
}

// A proxy, not an object built from the kinds' registry: requiring the door loads no kind (the
// provider process loads only what its resources use), and a kind it does not know still
// reaches install(), whose error names the installed version and the kinds it knows.
const providers: Record<string, object> = new Proxy({}, { get: (_, kind) => (typeof kind === "string" ? providerOf(kind) : undefined) });

export = providers;
