// Subnet: POST subnets (spec: the creation fields); PATCH subnets/{id} (reference) for the
// fields marked `update`.
import { arrayOf, boolean, cidr, ip, name, tags, uuid4 } from "./common";
import type { BodyContract, ObjectType } from "./types";

export const ROUTE = {
  kind: "object",
  fields: {
    destination: { type: cidr, required: true, set: "update" },
    nexthop: { type: ip, required: true, set: "update" },
  },
  rules: ["route"],
} as const satisfies ObjectType;

export const SUBNET = {
  fields: {
    name: { type: name, required: true, set: "update" },
    cidr: { type: cidr, required: true, set: "create" },
    networkId: { type: uuid4, required: true, set: "create" },
    connectToNetworkRouter: { type: boolean, set: "create", default: true, notInRecord: true },
    dnsNameservers: { type: arrayOf(ip, { unique: "ip" }), nullable: true, set: "update", serviceDefault: true },
    enableDhcp: { type: boolean, set: "update", default: true },
    gatewayIp: { type: ip, nullable: true, set: "update", serviceDefault: true },
    hostRoutes: { type: arrayOf(ROUTE, { unordered: true }), nullable: true, set: "update", serviceDefault: true },
    // Omitted: the service takes the CIDR's version (the rule across fields refuses another).
    ipVersion: { type: { kind: "integer", min: 4, max: 6, enum: [4, 6] }, set: "create", serviceDefault: true },
    routerIdToConnect: { type: uuid4, nullable: true, set: "create", serviceDefault: true, notInRecord: true },
    tags: { type: tags, set: "update", default: {} },
  },
  rules: ["subnet"],
} as const satisfies BodyContract;

/** Fields only the service writes, in the records it returns. */
export const SUBNET_RECORD = [
  "id",
  "available_ips",
  "total_ips",
  "has_router",
  "creator_task_id",
  "task_id",
  "created_at",
  "updated_at",
  "project_id",
  "region_id",
  "region",
] as const;
