// The bad-input catalogue (tests/e2e/bad-inputs/): LbPoolMember (on the plugin face: plugin-bad-inputs.test.ts).
import { catalogue } from "./bad-inputs/catalogue";
import { MEMBER } from "./bad-inputs/member";

catalogue("bad inputs: LbPoolMember", MEMBER);
