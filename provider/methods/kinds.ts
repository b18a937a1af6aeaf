// Every kind the provider process serves, by name: its descriptor and methods, each loaded
// only when a resource of that kind is used. The dynamic face's door (../resources/install.ts)
// and cims-import find kinds here.
import { verifyCredentials } from "./context";
import type { Descriptor, Kind } from "./descriptor";
import type { Methods } from "./install";
import type { Table } from "./table";

export interface KindEntry {
  descriptor: Descriptor;
  table: Table;
  methods: Methods;
}

type Load = () => KindEntry;

const KINDS: Record<Kind, Load> = {
  Subnet: () => {
    const m = require("./subnet") as typeof import("./subnet");
    return { descriptor: m.subnetDescriptor, table: m.subnetTable, methods: m.subnetMethods };
  },
  BaremetalImage: () => {
    const m = require("./baremetal-image") as typeof import("./baremetal-image");
    return { descriptor: m.imageDescriptor, table: m.imageTable, methods: m.baremetalImageMethods };
  },
  LbPoolSettings: () => {
    const m = require("./lb-pool-settings") as typeof import("./lb-pool-settings");
    return { descriptor: m.poolDescriptor, table: m.poolTable, methods: m.lbPoolSettingsMethods };
  },
  SnapshotPolicyState: () => {
    const m = require("./snapshot-policy-state") as typeof import("./snapshot-policy-state");
    return { descriptor: m.policyDescriptor, table: m.policyTable, methods: m.snapshotPolicyStateMethods };
  },
  QuotaThreshold: () => {
    const m = require("./quota-threshold") as typeof import("./quota-threshold");
    return { descriptor: m.quotaDescriptor, table: m.quotaTable, methods: m.quotaThresholdMethods };
  },
};

/** Every kind's name, in the order programs and modules list them. */
export const KIND_NAMES = Object.keys(KINDS) as Kind[];

export function isKind(name: string): name is Kind {
  return Object.hasOwn(KINDS, name);
}

const loaded = new Map<Kind, KindEntry>();

/** A kind's descriptor and methods (loaded on first use). */
export function kind(name: Kind): KindEntry {
  let entry = loaded.get(name);
  if (!entry) {
    const { methods, ...rest } = KINDS[name]();
    entry = { ...rest, methods: { ...methods, check: provenCheck(methods.check) } };
    loaded.set(name, entry);
  }
  return entry;
}

/**
 * check() that also proves the key and the URL (context.ts), after the inputs passed: a
 * preview whose every resource is unchanged sends no other request, and inputs that fail
 * their rules fail with those rules, with no request at all.
 */
function provenCheck(check: Methods["check"]): Methods["check"] {
  return async (olds, news) => {
    const result = await check(olds, news);
    if ((result.failures?.length ?? 0) === 0) await verifyCredentials();
    return result;
  };
}
