// The docs example of QuotaThreshold (docs/resources/quota-threshold.md), in every language from this one model.
import { type ExampleProgram, lookup } from "./program-model";

export const quotaThresholdExample: ExampleProgram = {
  doc: "The quota notification threshold of the account that holds the project named `default` (its client id found by `getProject`): e-mail at 90% of a quota rather than the service's 80%.",
  declarations: [
    {
      type: "QuotaThreshold",
      name: "quota-alerts",
      args: { clientId: lookup("getProject", { name: "default" }, "clientId"), threshold: 90 },
    },
  ],
  outputs: {},
};
