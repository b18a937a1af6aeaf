// Provider settings: stack config in the `cims` namespace first, then environment
// variables, then defaults. Read in the provider process (never captured into state).
import { ConfigurationError } from "./client/errors";

export interface ProviderSettings {
  apiUrl: URL;
  /** Kept out of every message and serialisation; see client/http.ts. */
  apiKey: string;
  projectId?: number;
  regionId?: number;
  taskTimeoutSeconds: number;
  taskPath: string;
  maxRetries: number;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  /** Answer refresh reads of subnets and images from one list request per scope (coalesce.ts). */
  coalesceReads: boolean;
  /** Skip the one authenticated read that proves the key and the URL before the first call (credentials.ts). */
  skipCredentialsValidation: boolean;
  /** At most this many requests a second from this process (client/pacer.ts); undefined: as the service allows. */
  maxRequestsPerSecond?: number;
}

/** Looks a `cims:` key up in the provider's configuration (without the namespace). */
export type ConfigLookup = (key: string) => string | undefined;

/** Every `cims:` key the provider reads, with the environment variable that stands in for it. */
export const CONFIG_KEYS = {
  apiUrl: "CIMS_API_URL",
  apiKey: "CIMS_API_KEY",
  projectId: "CIMS_PROJECT_ID",
  regionId: "CIMS_REGION_ID",
  taskTimeoutSeconds: undefined,
  taskPath: undefined,
  maxRetries: undefined,
  connectTimeoutSeconds: undefined,
  requestTimeoutSeconds: undefined,
  coalesceReads: "CIMS_COALESCE_READS",
  skipCredentialsValidation: "CIMS_SKIP_CREDENTIALS_VALIDATION",
  maxRequestsPerSecond: "CIMS_MAX_REQUESTS_PER_SECOND",
} as const satisfies Record<string, string | undefined>;

export type ConfigKey = keyof typeof CONFIG_KEYS;

export const isConfigKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_KEYS, key);

/**
 * How the user wrote the keys, so a message names the one to fix as they know it: the stack's
 * `cims:<key>` config (the dynamic face, the plugin's default provider) or an explicit
 * provider's arguments.
 */
export interface KeyNaming {
  name(key: ConfigKey): string;
  /** What to do about a required key that is missing. */
  howToGive(key: "apiKey" | "apiUrl"): string;
}

export const STACK_CONFIG: KeyNaming = {
  name: (key) => `cims:${key}`,
  howToGive: (key) =>
    key === "apiKey"
      ? "set the secret stack config `pulumi config set --secret cims:apiKey <key>`"
      : "set `pulumi config set cims:apiUrl https://...`",
};

export const PROVIDER_ARGUMENTS: KeyNaming = {
  name: (key) => key,
  howToGive: (key) => (key === "apiKey" ? "give the provider its `apiKey` argument (a secret)" : "give the provider its `apiUrl` argument"),
};

export const DEFAULTS = {
  taskTimeoutSeconds: 1800,
  taskPath: "/cloud/v1/tasks/{task_id}",
  maxRetries: 5,
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 120_000,
  coalesceReads: true,
  skipCredentialsValidation: false,
} as const;

/** A `cims:` key, else its environment variable; a blank value counts as absent. */
function reader(config: ConfigLookup, env: NodeJS.ProcessEnv): (key: ConfigKey) => string | undefined {
  const present = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  return (key) => {
    const envName = CONFIG_KEYS[key];
    return present(config(key)) ?? (envName ? present(env[envName]) : undefined);
  };
}

/** Each key's rule: its value parsed, or a ConfigurationError naming the key. The one copy of the rules. */
function rules(config: ConfigLookup, env: NodeJS.ProcessEnv, naming: KeyNaming) {
  const get = reader(config, env);
  const name = naming.name;
  return {
    apiUrl: () => parseApiUrl(get("apiUrl"), naming),
    projectId: () => optionalInteger(name("projectId"), get("projectId"), 1),
    regionId: () => optionalInteger(name("regionId"), get("regionId"), 1),
    taskTimeoutSeconds: () => optionalInteger(name("taskTimeoutSeconds"), get("taskTimeoutSeconds"), 1) ?? DEFAULTS.taskTimeoutSeconds,
    taskPath: () => parseTaskPath(name("taskPath"), get("taskPath")),
    maxRetries: () => optionalInteger(name("maxRetries"), get("maxRetries"), 0) ?? DEFAULTS.maxRetries,
    connectTimeoutSeconds: () => secondsToMs(name("connectTimeoutSeconds"), get("connectTimeoutSeconds")) ?? DEFAULTS.connectTimeoutMs,
    requestTimeoutSeconds: () => secondsToMs(name("requestTimeoutSeconds"), get("requestTimeoutSeconds")) ?? DEFAULTS.requestTimeoutMs,
    coalesceReads: () => optionalBoolean(name("coalesceReads"), get("coalesceReads")) ?? DEFAULTS.coalesceReads,
    skipCredentialsValidation: () =>
      optionalBoolean(name("skipCredentialsValidation"), get("skipCredentialsValidation")) ?? DEFAULTS.skipCredentialsValidation,
    maxRequestsPerSecond: () => optionalPositive(name("maxRequestsPerSecond"), get("maxRequestsPerSecond"), "requests per second"),
    apiKey: () => requireApiKey(get("apiKey"), naming),
  } satisfies Record<ConfigKey, () => unknown>;
}

/**
 * The default projectId/regionId of resources. Needs no API key, so check() can fill them
 * during preview; an invalid value throws a ConfigurationError naming the key.
 */
export function resolveScope(
  config: ConfigLookup = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): { projectId?: number; regionId?: number } {
  const rule = rules(config, env, STACK_CONFIG);
  return { projectId: rule.projectId(), regionId: rule.regionId() };
}

export function resolveSettings(config: ConfigLookup = () => undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const rule = rules(config, env, STACK_CONFIG);
  const settings: ProviderSettings = {
    apiUrl: rule.apiUrl(),
    projectId: rule.projectId(),
    regionId: rule.regionId(),
    taskTimeoutSeconds: rule.taskTimeoutSeconds(),
    taskPath: rule.taskPath(),
    maxRetries: rule.maxRetries(),
    connectTimeoutMs: rule.connectTimeoutSeconds(),
    requestTimeoutMs: rule.requestTimeoutSeconds(),
    coalesceReads: rule.coalesceReads(),
    skipCredentialsValidation: rule.skipCredentialsValidation(),
    maxRequestsPerSecond: rule.maxRequestsPerSecond(),
    apiKey: rule.apiKey(),
  };
  // Not enumerable: JSON.stringify, util.inspect and object spreads of the settings leave the
  // key out, so logging or serializing them cannot leak it.
  Object.defineProperty(settings, "apiKey", { value: settings.apiKey, enumerable: false, writable: false, configurable: false });
  return settings;
}

/**
 * Every rule the configuration breaks, each with its key (what the plugin's CheckConfig
 * answers before anything is called), rather than resolveSettings' first one. The messages
 * name no value of `apiKey`: its only rule is that it is given.
 */
export function configFailures(
  config: ConfigLookup,
  env: NodeJS.ProcessEnv = process.env,
  naming: KeyNaming = STACK_CONFIG,
): Array<{ key: ConfigKey; reason: string }> {
  const failures: Array<{ key: ConfigKey; reason: string }> = [];
  const rule = rules(config, env, naming);
  for (const key of Object.keys(CONFIG_KEYS).filter(isConfigKey)) {
    try {
      rule[key]();
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      failures.push({ key, reason: err.message });
    }
  }
  return failures;
}

function requireApiKey(value: string | undefined, naming: KeyNaming): string {
  if (value === undefined) {
    throw new ConfigurationError(`no CIMS API key: ${naming.howToGive("apiKey")} or the CIMS_API_KEY environment variable`);
  }
  return value;
}

function parseApiUrl(value: string | undefined, naming: KeyNaming): URL {
  const name = naming.name("apiUrl");
  if (value === undefined) {
    throw new ConfigurationError(`no CIMS API URL: ${naming.howToGive("apiUrl")} or the CIMS_API_URL environment variable`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`${name} must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`${name} must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(`${name} must not carry credentials; use ${naming.name("apiKey")}`);
  }
  return url;
}

function optionalBoolean(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new ConfigurationError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function optionalInteger(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigurationError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function secondsToMs(name: string, value: string | undefined): number | undefined {
  const n = optionalPositive(name, value, "seconds");
  return n === undefined ? undefined : Math.round(n * 1000);
}

function optionalPositive(name: string, value: string | undefined, unit: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigurationError(`${name} must be a positive number of ${unit}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseTaskPath(name: string, value: string | undefined): string {
  if (value === undefined) return DEFAULTS.taskPath;
  if (!value.startsWith("/") || !value.includes("{task_id}")) {
    throw new ConfigurationError(`${name} must start with "/" and contain {task_id}, got ${JSON.stringify(value)}`);
  }
  return value;
}
