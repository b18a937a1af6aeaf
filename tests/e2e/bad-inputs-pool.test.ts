// The bad-input catalogue (tests/e2e/bad-inputs/): LbPoolSettings, on the dynamic face.
import { catalogue } from "./bad-inputs/catalogue";
import { POOL } from "./bad-inputs/pool";

catalogue("bad inputs: LbPoolSettings", POOL);
