import type { KindKit } from "./kit";

export const QuotaThreshold: KindKit = {
  lifecycle: true,
  values: {
    last_message: { global_quotas: { keypair_count_limit: { limit: 9223372036854775807n, usage: 5 } }, regional_quotas: [] },
    last_sending: "2026-06-01T08:00:00",
  },
  base: { threshold: 81 },
  example: {
    record: (env, r) => env.emulator.store.list("client_quotas").find((q) => q.client_id === r.outputs?.clientId),
    // The service's default again.
    afterDestroy: (quota) => expect(quota).toMatchObject({ threshold: 80 }),
  },
};
