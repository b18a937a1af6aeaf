// The engine loads a policy pack from its directory; the pack itself is compiled TypeScript.
require("../dist/provider/policy/index.js");
