// The `cims` policy pack. The engine runs it from the policy/ directory of this package
// (`pulumi preview --policy-pack node_modules/pulumi-cims/policy`); docs/policy.md says how.
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./rules";

new PolicyPack("cims", { policies });
