// The fault matrix's request faults on the plugin face: every fault the dynamic
// face recovers from (faults.ts EXPECTED), create and update, recovers through
// `pulumi-resource-cims` too: one long-lived provider process, the same methods and client.
import { matrix } from "./faults";

matrix("create", "native", "recovers");
matrix("update", "native", "recovers");
