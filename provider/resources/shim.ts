// The serialized providers, kept thin: they capture nothing and require the implementation
// at call time. Pulumi stores the text of each object in
// every resource's state and reloads it in the provider process. Each object has one
// method, configure(), which the dynamic-provider host calls once, right after loading it
// and before any other method: it loads the implementation by package name, through the
// one frozen entry point (install.ts), and installs
// check/diff/create/read/update/delete onto the object. So the stored text is a few
// hundred bytes, captures nothing, is identical for every resource of a type and across
// package versions (a changed text would make Pulumi replace every resource), and never
// runs stale code. One object per type, because Pulumi caches serialization per object.
import type * as pulumi from "@pulumi/pulumi";

type Shim = pulumi.dynamic.ResourceProvider;

// The methods are written out per type, not made by a factory: a factory's parameter
// would be captured into the serialized text.
export const subnetShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/provider/resources/install").install(this, "Subnet", req);
  },
} as unknown as Shim;

export const baremetalImageShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/provider/resources/install").install(this, "BaremetalImage", req);
  },
} as unknown as Shim;

export const lbPoolSettingsShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/provider/resources/install").install(this, "LbPoolSettings", req);
  },
} as unknown as Shim;

export const snapshotPolicyStateShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/provider/resources/install").install(this, "SnapshotPolicyState", req);
  },
} as unknown as Shim;

export const quotaThresholdShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/provider/resources/install").install(this, "QuotaThreshold", req);
  },
} as unknown as Shim;
