// The fault matrix's request faults on the plugin face: every fault the dynamic
// face recovers from (faults.ts), create and update, recovers through
// `pulumi-resource-cims` too: one long-lived provider process, the same methods and client.
import { matrix, POOL_SETTINGS, SUBNET } from "./faults";

matrix(SUBNET, "create", "native", "recovers");
matrix(POOL_SETTINGS, "update", "native", "recovers");
