// Bad-input catalogue, part 3: SnapshotPolicyState and QuotaThreshold.
import { type BadCase, withField } from "./catalogue";

const q = (field: string, value: string) => withField("quota", field, value);
const msg = (globalQuotas: string) => q("lastMessage", `{ globalQuotas: ${globalQuotas} }`);

export const POLICY_QUOTA: BadCase[] = [
  {
    what: "policy: policyId as a string",
    resource: "SnapshotPolicyState",
    args: `{ policyId: "101" }`,
    property: "policyId",
    rule: /integer/,
  },
  { what: "policy: policyId 0", resource: "SnapshotPolicyState", args: `{ policyId: 0 }`, property: "policyId", rule: /positive integer/ },
  {
    what: "policy: status stopped",
    resource: "SnapshotPolicyState",
    args: withField("policy", "status", '"stopped"'),
    property: "status",
    rule: /one of: active, paused/,
  },
  {
    what: "policy: empty name",
    resource: "SnapshotPolicyState",
    args: withField("policy", "name", '"  "'),
    property: "name",
    rule: /must not be empty/,
  },
  {
    what: "policy: includeVolumes as a string",
    resource: "SnapshotPolicyState",
    args: withField("policy", "includeVolumes", '"yes"'),
    property: "includeVolumes",
    rule: /true or false/,
  },
  {
    what: "policy: a field the API does not accept",
    resource: "SnapshotPolicyState",
    args: withField("policy", "schedules", "[]"),
    property: "schedules",
    rule: /not an argument/,
  },
  {
    what: "quota: threshold 59 (one below)",
    resource: "QuotaThreshold",
    args: q("threshold", "59"),
    property: "threshold",
    rule: /at least 60/,
  },
  {
    what: "quota: threshold 101 (one past)",
    resource: "QuotaThreshold",
    args: q("threshold", "101"),
    property: "threshold",
    rule: /at most 100/,
  },
  {
    what: "quota: threshold as a float",
    resource: "QuotaThreshold",
    args: q("threshold", "75.5"),
    property: "threshold",
    rule: /no fractions/,
  },
  {
    what: "quota: threshold as a string",
    resource: "QuotaThreshold",
    args: q("threshold", '"80"'),
    property: "threshold",
    rule: /integer from 60 to 100/,
  },
  { what: "quota: threshold missing", resource: "QuotaThreshold", args: `{ clientId: 1 }`, property: "threshold", rule: /is required/ },
  {
    what: "quota: clientId 0",
    resource: "QuotaThreshold",
    args: `{ clientId: 0, threshold: 80 }`,
    property: "clientId",
    rule: /positive integer/,
  },
  {
    what: "quota: an unknown quota name",
    resource: "QuotaThreshold",
    args: msg("{ gpuCountLimit: { limit: 1, usage: 0 } }"),
    property: "lastMessage.globalQuotas.gpuCountLimit",
    rule: /not a global quota/,
  },
  {
    what: "quota: a limit past int64",
    resource: "QuotaThreshold",
    args: msg('{ keypairCountLimit: { limit: "9223372036854775808", usage: 0 } }'),
    property: "lastMessage.globalQuotas.keypairCountLimit.limit",
    rule: /signed 64-bit/,
  },
  {
    what: "quota: a limit that lost digits as a number",
    resource: "QuotaThreshold",
    args: msg("{ keypairCountLimit: { limit: 9223372036854775807, usage: 0 } }"),
    property: "lastMessage.globalQuotas.keypairCountLimit.limit",
    rule: /give them as strings/,
  },
  {
    what: "quota: usage missing",
    resource: "QuotaThreshold",
    args: msg("{ keypairCountLimit: { limit: 1 } }"),
    property: "lastMessage.globalQuotas.keypairCountLimit.usage",
    rule: /is required/,
  },
  {
    what: "quota: lastSending not a date",
    resource: "QuotaThreshold",
    args: q("lastSending", '"last tuesday"'),
    property: "lastSending",
    rule: /ISO 8601/,
  },
];
