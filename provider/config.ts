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
}

/** Looks a `cims:` key up in the provider's configuration (without the namespace). */
export type ConfigLookup = (key: string) => string | undefined;

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
function reader(config: ConfigLookup, env: NodeJS.ProcessEnv): (key: string, envName?: string) => string | undefined {
  const present = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  return (key, envName) => present(config(key)) ?? (envName ? present(env[envName]) : undefined);
}

/**
 * The default projectId/regionId of resources. Needs no API key, so check() can fill them
 * during preview; an invalid value throws a ConfigurationError naming the key.
 */
export function resolveScope(
  config: ConfigLookup = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): { projectId?: number; regionId?: number } {
  const get = reader(config, env);
  return {
    projectId: optionalInteger("projectId", get("projectId", "CIMS_PROJECT_ID"), 1),
    regionId: optionalInteger("regionId", get("regionId", "CIMS_REGION_ID"), 1),
  };
}

export function resolveSettings(config: ConfigLookup = () => undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const get = reader(config, env);
  const settings: ProviderSettings = {
    apiUrl: parseApiUrl(get("apiUrl", "CIMS_API_URL")),
    ...resolveScope(config, env),
    taskTimeoutSeconds: optionalInteger("taskTimeoutSeconds", get("taskTimeoutSeconds"), 1) ?? DEFAULTS.taskTimeoutSeconds,
    taskPath: parseTaskPath(get("taskPath")),
    maxRetries: optionalInteger("maxRetries", get("maxRetries"), 0) ?? DEFAULTS.maxRetries,
    connectTimeoutMs: secondsToMs("connectTimeoutSeconds", get("connectTimeoutSeconds")) ?? DEFAULTS.connectTimeoutMs,
    requestTimeoutMs: secondsToMs("requestTimeoutSeconds", get("requestTimeoutSeconds")) ?? DEFAULTS.requestTimeoutMs,
    coalesceReads: optionalBoolean("coalesceReads", get("coalesceReads", "CIMS_COALESCE_READS")) ?? DEFAULTS.coalesceReads,
    skipCredentialsValidation:
      optionalBoolean("skipCredentialsValidation", get("skipCredentialsValidation", "CIMS_SKIP_CREDENTIALS_VALIDATION")) ??
      DEFAULTS.skipCredentialsValidation,
    apiKey: requireApiKey(get("apiKey", "CIMS_API_KEY")),
  };
  // Not enumerable: JSON.stringify, util.inspect and object spreads of the settings leave the
  // key out, so logging or serializing them cannot leak it.
  Object.defineProperty(settings, "apiKey", { value: settings.apiKey, enumerable: false, writable: false, configurable: false });
  return settings;
}

function requireApiKey(value: string | undefined): string {
  if (value === undefined) {
    throw new ConfigurationError(
      "no CIMS API key: set the secret stack config `pulumi config set --secret cims:apiKey <key>` " +
        "or the CIMS_API_KEY environment variable",
    );
  }
  return value;
}

function parseApiUrl(value: string | undefined): URL {
  if (value === undefined) {
    throw new ConfigurationError(
      "no CIMS API URL: set `pulumi config set cims:apiUrl https://...` or the CIMS_API_URL environment variable",
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(`cims:apiUrl must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigurationError(`cims:apiUrl must use http or https, got ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError("cims:apiUrl must not carry credentials; use cims:apiKey");
  }
  return url;
}

function optionalBoolean(key: string, value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new ConfigurationError(`cims:${key} must be true or false, got ${JSON.stringify(value)}`);
}

function optionalInteger(key: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigurationError(`cims:${key} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function secondsToMs(key: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigurationError(`cims:${key} must be a positive number of seconds, got ${JSON.stringify(value)}`);
  }
  return Math.round(n * 1000);
}

function parseTaskPath(value: string | undefined): string {
  if (value === undefined) return DEFAULTS.taskPath;
  if (!value.startsWith("/") || !value.includes("{task_id}")) {
    throw new ConfigurationError(`cims:taskPath must start with "/" and contain {task_id}, got ${JSON.stringify(value)}`);
  }
  return value;
}
