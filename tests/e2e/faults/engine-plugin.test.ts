// The fault matrix's engine rows on the plugin face (`pulumi-resource-cims`), one per
// operation: the same rows as engine-dynamic.test.ts, through the plugin's gRPC answers (a
// partly made create reaches the engine as the init-failure detail it records).
import { engineRow, engineRows } from "./engine-rows";

engineRow("Subnet", "create", "native", "task never finishes (deadline)");
engineRow("LbPoolSettings", "update", "native", "task ERROR");
// A refresh under a fault ends with the stack converged, as a first up leaves it: the delete's row
// goes on from there.
engineRows("Subnet", "native", [
  ["refresh", "connection reset"],
  ["delete", "task ERROR"],
]);
