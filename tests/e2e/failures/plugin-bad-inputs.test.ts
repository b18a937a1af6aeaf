// The bad-input catalogue (tests/e2e/support/bad-inputs/) on the plugin face: every case through the
// plugin's Check over gRPC (through-check.ts says why), a sample through `pulumi preview`.
import { catalogue } from "../support/bad-inputs/catalogue";
import { ALL } from "../support/bad-inputs/all";
import { THROUGH_THE_CLI, throughCheck } from "../support/bad-inputs/through-check";

throughCheck("bad inputs on the plugin face: every case through the plugin's Check", "native", ALL);

catalogue(
  "bad inputs on the plugin face: a sample through pulumi preview",
  ALL.filter((c) => THROUGH_THE_CLI.includes(c.what)),
  "native",
);
