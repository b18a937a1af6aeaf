// The fault matrix's engine rows on the dynamic face, one per operation: a create partly made
// (its task outlived the deadline) is recorded in the stack's state and the next `up` waits for
// it; after a failed update or delete the state still agrees with the service; a refresh under
// a fault records what the service holds. Why each: engine-rows.ts.
import { engineRow, engineRows } from "./engine-rows";

engineRow("Subnet", "create", "dynamic", "task never finishes (deadline)");
engineRow("LbPoolSettings", "update", "dynamic", "task ERROR");
// A refresh under a fault ends with the stack converged, as a first up leaves it: the delete's row
// goes on from there.
engineRows("Subnet", "dynamic", [
  ["refresh", "connection reset"],
  ["delete", "task ERROR"],
]);
