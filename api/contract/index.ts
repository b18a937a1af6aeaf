export * from "./types";
export { IMAGE, IMAGE_RECORD } from "./image";
export { HEALTH_MONITOR, MEMBER, POOL, POOL_RECORD, SESSION_PERSISTENCE } from "./pool";
export { POLICY, POLICY_RECORD } from "./policy";
export { GLOBAL_QUOTAS, QUOTA_ENTRY, QUOTA_MESSAGE, QUOTA_RECORD, QUOTA_THRESHOLD, REGIONAL_QUOTAS } from "./quota";
export { ROUTE, SUBNET, SUBNET_RECORD } from "./subnet";
export * from "./derive";
