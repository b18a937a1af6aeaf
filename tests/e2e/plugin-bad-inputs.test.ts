// The bad-input catalogue on the plugin face: every case of tests/e2e/bad-inputs/
// through `cims.native.<Kind>` fails at preview with the same property and rule as on the
// dynamic face (the plugin's Check runs the same methods), with zero requests.
import { catalogue } from "./bad-inputs/catalogue";
import { POLICY_QUOTA } from "./bad-inputs/policy-quota";
import { POOL } from "./bad-inputs/pool";
import { SUBNET_IMAGE } from "./bad-inputs/subnet-image";

catalogue("bad inputs on the plugin face", [...SUBNET_IMAGE, ...POOL, ...POLICY_QUOTA], "native");
