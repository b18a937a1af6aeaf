// Bad-input catalogue, part 2: LbPoolSettings.
import { type BadCase, catalogue, withField } from "./bad-inputs";

const p = (field: string, value: string) => withField("pool", field, value);
const member = (m: string) => p("members", `[${m}]`);

const cases: BadCase[] = [
  { what: "pool: poolId not a uuid", resource: "LbPoolSettings", args: `{ poolId: "pool-1" }`, property: "poolId", rule: /UUID/ },
  { what: "pool: lbAlgorithm RANDOM", resource: "LbPoolSettings", args: p("lbAlgorithm", '"RANDOM"'), property: "lbAlgorithm", rule: /one of: LEAST_CONNECTIONS, ROUND_ROBIN, SOURCE_IP/ },
  { what: "pool: protocol SCTP", resource: "LbPoolSettings", args: p("protocol", '"SCTP"'), property: "protocol", rule: /one of: HTTP, HTTPS/ },
  { what: "pool: timeoutClientData -1 (one below 0)", resource: "LbPoolSettings", args: p("timeoutClientData", "-1"), property: "timeoutClientData", rule: /from 0 to 86400000 milliseconds/ },
  { what: "pool: timeoutMemberConnect 86400001 (one past)", resource: "LbPoolSettings", args: p("timeoutMemberConnect", "86400001"), property: "timeoutMemberConnect", rule: /from 0 to 86400000/ },
  { what: "pool: timeoutMemberData 1.5", resource: "LbPoolSettings", args: p("timeoutMemberData", "1.5"), property: "timeoutMemberData", rule: /integer/ },
  { what: "pool: secretId not a uuid", resource: "LbPoolSettings", args: p("secretId", '"secret"'), property: "secretId", rule: /UUID/ },
  { what: "pool: caSecretId a uuid v1", resource: "LbPoolSettings", args: p("caSecretId", '"6ba7b810-9dad-11d1-80b4-00c04fd430c8"'), property: "caSecretId", rule: /version 4/ },
  { what: "pool: member port 0", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1", protocolPort: 0 }'), property: "members[0].protocolPort", rule: /from 1 to 65535/ },
  { what: "pool: member port 65536", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1", protocolPort: 65536 }'), property: "members[0].protocolPort", rule: /from 1 to 65535/ },
  { what: "pool: member weight 0", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1", protocolPort: 80, weight: 0 }'), property: "members[0].weight", rule: /from 1 to 256/ },
  { what: "pool: member weight 257", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1", protocolPort: 80, weight: 257 }'), property: "members[0].weight", rule: /from 1 to 256/ },
  { what: "pool: member address not an IP", resource: "LbPoolSettings", args: member('{ address: "web-1", protocolPort: 80 }'), property: "members[0].address", rule: /IP address/ },
  { what: "pool: duplicate members", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1", protocolPort: 80 }, { address: "10.0.0.1", protocolPort: 80, weight: 2 }'), property: "members[1]", rule: /duplicates members\[0\]/ },
  { what: "pool: member protocolPort missing", resource: "LbPoolSettings", args: member('{ address: "10.0.0.1" }'), property: "members[0].protocolPort", rule: /is required/ },
  { what: "pool: members as a string", resource: "LbPoolSettings", args: p("members", '"10.0.0.1:80"'), property: "members", rule: /array/ },
  { what: "pool: healthmonitor type ICMP", resource: "LbPoolSettings", args: p("healthmonitor", '{ type: "ICMP", delay: 5, timeout: 5, maxRetries: 3 }'), property: "healthmonitor.type", rule: /one of: HTTP/ },
  { what: "pool: healthmonitor delay 0", resource: "LbPoolSettings", args: p("healthmonitor", '{ type: "TCP", delay: 0, timeout: 5, maxRetries: 3 }'), property: "healthmonitor.delay", rule: /from 1 to/ },
  { what: "pool: healthmonitor null (the API cannot remove one)", resource: "LbPoolSettings", args: p("healthmonitor", "null"), property: "healthmonitor", rule: /cannot be null: .*no way to remove it/ },
  { what: "pool: healthmonitor maxRetries 11", resource: "LbPoolSettings", args: p("healthmonitor", '{ type: "TCP", delay: 5, timeout: 5, maxRetries: 11 }'), property: "healthmonitor.maxRetries", rule: /from 1 to 10/ },
  { what: "pool: healthmonitor urlPath without /", resource: "LbPoolSettings", args: p("healthmonitor", '{ type: "HTTP", delay: 5, timeout: 5, maxRetries: 3, urlPath: "health" }'), property: "healthmonitor.urlPath", rule: /must start with \// },
  { what: "pool: sessionPersistence type STICKY", resource: "LbPoolSettings", args: p("sessionPersistence", '{ type: "STICKY" }'), property: "sessionPersistence.type", rule: /one of: APP_COOKIE, HTTP_COOKIE, SOURCE_IP/ },
];

catalogue("bad inputs: LbPoolSettings", cases);
