// What a resource is to the emulator: the routes that serve it. Each file of this folder
// exports one, named as the resource (api/contract/ and provider/kinds/ export the same
// name); ./index.ts lists them.
import type { Router, Services } from "../router";

export interface Collection {
  /** Adds the resource's routes (its paths are in its contract). */
  routes(router: Router, services: Services): void;
}
