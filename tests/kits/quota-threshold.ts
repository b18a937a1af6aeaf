import { SEED } from "../support/cims";
import type { KindKit, Seen } from "./kit";

const CLIENT_ID = Number(SEED.clientId);
/** An exact integer as its digits (the service's int64 fields may be bigints). */
const digits = (v: unknown) => (v === undefined ? undefined : String(v));
const thresholdOf = (env: Seen) => env.emulator.store.list("client_quotas").find((q) => q.client_id === CLIENT_ID)?.threshold;

export const QuotaThreshold: KindKit = {
  // The seed's client's threshold: declared from the first program, its threshold and its last
  // message's int64 counts edited, removed (the service's default again) and added back.
  lifecycle: {
    names: ["quota"],
    start: [{ threshold: 80 }],
    added: () => ({ threshold: 90 }),
    fields: {
      threshold: [60, 75, 80, 95, 100],
      keypair: [undefined, { limit: "9223372036854775807", usage: "12" }, { limit: "100", usage: "9223372036854775806" }],
    },
    args: (v) => ({
      clientId: CLIENT_ID,
      threshold: v.threshold,
      ...(v.keypair ? { lastMessage: { globalQuotas: { keypairCountLimit: v.keypair } } } : {}),
    }),
    holds: (record, v) => {
      const entry = (record?.last_message as { global_quotas?: Record<string, { limit: unknown; usage: unknown }> } | undefined)
        ?.global_quotas?.keypair_count_limit;
      return [
        ["threshold", digits(record?.threshold), String(v.threshold)],
        ...(v.keypair
          ? [
              [
                "last_message.global_quotas.keypair_count_limit",
                { limit: digits(entry?.limit), usage: digits(entry?.usage) },
                v.keypair,
              ] as const,
            ]
          : []),
      ];
    },
    // No QuotaThreshold in the program: removing it (or never having it) leaves the service's default.
    absent: (env) => [["threshold (the service's default)", digits(thresholdOf(env)), "80"]],
    refreshed: (o, record) => [["threshold", digits(o.threshold), digits(record?.threshold)]],
  },
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
