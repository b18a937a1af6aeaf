// The fault matrix's request faults on the plugin face, in process: every fault the dynamic face
// recovers from, a SnapshotPolicy create recovers from through the plugin's gRPC handlers too.
import { matrix } from "./matrix";

matrix("SnapshotPolicy", "create", "native", "recovers");
