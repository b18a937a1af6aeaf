// Public entry point of `pulumi-cims`. The CIMS resources (Subnet, BaremetalImage,
// LbPoolSettings, SnapshotPolicyState, QuotaThreshold) are exported from here as they land;
// the test-only Echo resource is at `pulumi-cims/testing`.
export {};
