// The docs example of QuotaThreshold (docs/resources/quota-threshold.md), in every language from this one model.
import { config, type ExampleProgram } from "./program-model";

export const quotaThresholdExample: ExampleProgram = {
  doc: "The quota notification threshold of a client (its id from the stack's config): e-mail at 90% of a quota rather than the service's 80%.",
  declarations: [{ type: "QuotaThreshold", name: "quota-alerts", args: { clientId: config("clientId", "integer"), threshold: 90 } }],
  outputs: {},
};
