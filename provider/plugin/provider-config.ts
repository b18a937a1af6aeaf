// The plugin's own configuration, as a first-class provider answers for it: CheckConfig holds
// an explicit provider's arguments (for the default provider, the stack's `cims:` config) to
// config.ts's rules before the provider is configured or anything is called, and DiffConfig
// says which settings change. No change replaces resources: a rotated key or a new URL reaches
// the same records; a new default projectId/regionId reaches each resource through its own
// inputs (check() fills them), where its own diff decides.
import { isRecord } from "../../api/guards";
import { configFailures, isConfigKey, type KeyNaming, PROVIDER_ARGUMENTS, STACK_CONFIG, unknownKeyReason } from "../config";
import { UNKNOWN } from "../methods/schema";

type Json = Record<string, unknown>;

/** The engine's key beside the provider's own settings: the plugin's version. */
const ENGINE_KEYS = new Set(["version"]);
/**
 * How the engine marks a secret: `{ [SIG_KEY]: SECRET_SIG, value }`. The values of
 * `specialSigKey` and `specialSecretSig` in @pulumi/pulumi/runtime/rpc, written out because
 * importing that module loads the SDK's whole runtime into the plugin (its start-up, paid by
 * every command); a unit test holds them equal to the SDK's.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** A secret's value (the engine sends secrets plain to this plugin today, but may wrap them). */
function plain(value: unknown): unknown {
  return isRecord(value) && value[SIG_KEY] === SECRET_SIG && "value" in value ? value.value : value;
}

/**
 * A value as Configure hands it to config.ts: a string as it is, anything else as its JSON;
 * a blank or absent one is undefined, as config.ts reads it.
 */
function configValue(value: unknown): string | undefined {
  const v = plain(value);
  if (v === undefined) return undefined;
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.trim() === "" ? undefined : text.trim();
}

/** The engine names the default provider `default` or `default_<version>`: its arguments are the stack's `cims:` config. */
function namingOf(urn: string): KeyNaming {
  return (urn.split("::")[3] ?? "").startsWith("default") ? STACK_CONFIG : PROVIDER_ARGUMENTS;
}

export interface ConfigCheckFailure {
  /** The argument the engine shows beside its value; none for the key (whose value it would show) and for unknown keys. */
  property: string;
  reason: string;
}

/**
 * Every rule the provider's inputs break, each naming the key as the user wrote it, with the
 * environment's fallbacks as Configure will see them. A value unknown during preview is
 * checked when it is known.
 */
export function checkConfig(urn: string, news: Json, env: NodeJS.ProcessEnv = process.env): ConfigCheckFailure[] {
  const naming = namingOf(urn);
  const given = Object.entries(news).filter(([k]) => !ENGINE_KEYS.has(k));
  const unknown = new Set(given.filter(([, v]) => plain(v) === UNKNOWN).map(([k]) => k));
  const values = new Map(given.map(([k, v]) => [k, configValue(v)]));
  const failures: ConfigCheckFailure[] = given
    .filter(([k]) => !isConfigKey(k))
    .map(([k]) => ({ property: "", reason: unknownKeyReason(k, naming) }));
  for (const f of configFailures((k) => values.get(k), env, naming)) {
    if (!unknown.has(f.key)) failures.push({ property: f.key === "apiKey" ? "" : f.key, reason: f.reason });
  }
  return failures;
}

export type ConfigChange = "add" | "delete" | "update";

/** The settings that change, by key (the plugin's version included); a value unknown during preview may change. */
export function diffConfig(olds: Json, news: Json, ignoreChanges: readonly string[] = []): Map<string, ConfigChange> {
  const keys = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter((k) => !ignoreChanges.includes(k)).sort();
  const changes = new Map<string, ConfigChange>();
  for (const key of keys) {
    const before = configValue(olds[key]);
    const after = configValue(news[key]);
    if (before === after && after !== UNKNOWN) continue;
    changes.set(key, before === undefined ? "add" : after === undefined ? "delete" : "update");
  }
  return changes;
}
