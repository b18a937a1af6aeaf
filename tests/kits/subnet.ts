import { SEED } from "../support/cims";
import type { KindKit } from "./kit";

export const Subnet: KindKit = {
  create: async () => ({ name: "s", cidr: "10.123.0.0/24", network_id: SEED.networkId }),
  values: { gateway_ip: "10.123.0.9", host_routes: [{ destination: "10.124.0.0/24", nexthop: "10.123.0.254" }] },
  example: {
    record: (env, r) => env.emulator.store.get("subnets", r.id),
    afterDestroy: (record) => expect(record).toBeUndefined(),
  },
};
