// The fault matrix's request faults on the plugin face, in process: every fault the dynamic
// face recovers from, a Subnet create recovers from through the plugin's gRPC handlers too (the
// same methods and client, behind Structs).
import { matrix } from "./matrix";

matrix("Subnet", "create", "native", "recovers");
