// The bad-input catalogue (tests/e2e/bad-inputs/): LbPoolMember, on both faces.
import { catalogue } from "./bad-inputs/catalogue";
import { MEMBER } from "./bad-inputs/member";

catalogue("bad inputs: LbPoolMember", MEMBER);
catalogue("bad inputs: LbPoolMember on the plugin face", MEMBER, "native");
