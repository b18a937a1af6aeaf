// Quick start: all five CIMS resources, wired together, against cims-emulator (or a real
// endpoint): a subnet, an image from a volume, the subnet feeding a load balancer pool
// member, a paused snapshot policy, and a 75% quota notification threshold.
//
// Config (see the README): cims:apiUrl, cims:apiKey (secret), cims:projectId, cims:regionId,
// and this program's own: networkId, volumeId, poolId, policyId, clientId, subnetCidr, memberAddress.
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";

const config = new pulumi.Config();

const subnet = new cims.Subnet("app-subnet", {
  name: "app-subnet",
  cidr: config.get("subnetCidr") ?? "10.20.0.0/24",
  networkId: config.require("networkId"),
  dnsNameservers: ["10.20.0.2"],
  tags: { env: pulumi.getStack(), team: config.get("team") ?? "platform" },
});

const image = new cims.BaremetalImage("golden-image", {
  name: "golden-image",
  volumeId: config.require("volumeId"),
  isBaremetal: true,
  sshKey: "required",
  tags: { source: "golden-root" },
});

const pool = new cims.LbPoolSettings("web-pool", {
  poolId: config.require("poolId"),
  lbAlgorithm: "LEAST_CONNECTIONS",
  members: [{ address: config.get("memberAddress") ?? "10.20.0.10", protocolPort: 8080, weight: 2, subnetId: subnet.id }],
  healthmonitor: { type: "HTTP", delay: 10, timeout: 5, maxRetries: 3, urlPath: "/healthz" },
  timeoutMemberConnect: 3000,
});

const policy = new cims.SnapshotPolicyState("nightly-snapshots", {
  policyId: config.requireNumber("policyId"),
  status: "paused",
});

const threshold = new cims.QuotaThreshold("quota-alerts", {
  clientId: config.requireNumber("clientId"),
  threshold: 75,
});

export const subnetId = subnet.id;
export const subnetGateway = subnet.gatewayIp;
export const imageId = image.id;
export const imageStatus = image.status;
export const poolMembers = pool.members.apply((ms) => (ms ?? []).map((m) => `${m.address}:${m.protocolPort} (${m.id})`));
export const policyStatus = policy.status;
export const quotaThreshold = threshold.threshold;
export const projectCountLimit = threshold.lastMessage.apply((m) => m.globalQuotas?.projectCountLimit?.limit);
