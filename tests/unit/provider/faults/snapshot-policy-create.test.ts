// Fault matrix in process, SnapshotPolicy create (POST lifecycle_policy, synchronous): outcomes
// and why in tests/support/faults.ts (SNAPSHOT_POLICY).
import { matrix } from "./matrix";

matrix("SnapshotPolicy", "create");
