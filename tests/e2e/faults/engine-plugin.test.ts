// The fault matrix's engine rows on the plugin face (`pulumi-resource-cims`), one per
// operation: the same rows as engine-dynamic.test.ts, through the plugin's gRPC answers (a
// partly made create reaches the engine as the init-failure detail it records).
import { engineRow } from "./engine-rows";

engineRow("Subnet", "create", "native", "task never finishes (deadline)");
engineRow("LbPoolSettings", "update", "native", "task ERROR");
engineRow("Subnet", "delete", "native", "task ERROR");
engineRow("Subnet", "refresh", "native", "connection reset");
