// One program for every environment: what differs (endpoint, project, region, sizes) lives
// in Pulumi.<stack>.yaml. `pulumi preview --diff --stack prod` in a pull request shows
// exactly what merging would change in prod.
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";

const config = new pulumi.Config();
const env = pulumi.getStack();
const backendCount = config.requireNumber("backendCount");

const subnet = new cims.Subnet(`${env}-backends`, {
  name: `${env}-backends`,
  cidr: config.require("subnetCidr"),
  networkId: config.require("networkId"),
  tags: { env, "managed-by": "pulumi" },
});

const image = new cims.BaremetalImage(`${env}-golden`, {
  name: `${env}-golden`,
  volumeId: config.require("volumeId"),
  isBaremetal: true,
  tags: { env },
});

// Backends get the first addresses after the gateway of the new subnet.
const members = subnet.cidr.apply((cidr) => {
  const [base] = cidr.split("/");
  const octets = base.split(".").map(Number);
  return Array.from({ length: backendCount }, (_, i) => ({
    address: [...octets.slice(0, 3), octets[3] + 10 + i].join("."),
    protocolPort: 8080,
  }));
});

const pool = new cims.LbPoolSettings(`${env}-pool`, {
  poolId: config.require("poolId"),
  lbAlgorithm: "ROUND_ROBIN",
  members: members.apply((ms) => ms.map((m) => ({ ...m, subnetId: subnet.id }))),
  healthmonitor: { type: "HTTP", delay: 10, timeout: 5, maxRetries: 3, urlPath: "/healthz" },
});

const snapshots = new cims.SnapshotPolicyState(`${env}-snapshots`, {
  policyId: config.requireNumber("policyId"),
  status: config.require("snapshots") === "paused" ? "paused" : "active",
});

const alerts = new cims.QuotaThreshold(`${env}-quota-alerts`, {
  clientId: config.requireNumber("clientId"),
  threshold: config.requireNumber("quotaAlertPercent"),
});

export const subnetId = subnet.id;
export const imageId = image.id;
export const poolMemberCount = pool.members.apply((ms) => (ms ?? []).length);
export const snapshotStatus = snapshots.status;
export const quotaAlertPercent = alerts.threshold;
