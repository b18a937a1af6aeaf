// The docs example of LbPoolSettings (docs/resources/lb-pool-settings.md), in every language from this one model.
import { type ExampleProgram, lookup } from "./program-model";

export const lbPoolSettingsExample: ExampleProgram = {
  doc: "The settings of a pool that already exists (found by its name, `web-pool`): its algorithm, an HTTP health check and one member of the stack's own; other members of the pool are left as they are.",
  declarations: [
    {
      type: "LbPoolSettings",
      name: "web-pool",
      args: {
        poolId: lookup("getPool", { name: "web-pool" }, "id"),
        lbAlgorithm: "LEAST_CONNECTIONS",
        healthmonitor: { type: "HTTP", delay: 10, timeout: 5, maxRetries: 3, urlPath: "/healthz" },
        members: [{ address: "10.0.0.20", protocolPort: 8080, weight: 2 }],
      },
    },
  ],
  outputs: {},
};
