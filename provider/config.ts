// Provider settings: stack config in the `cims` namespace first, then environment
// variables, then defaults. Read in the provider process (never captured into state).
// CONFIG_TABLE is the one statement of the keys: the settings below, both faces' checks
// (unknown keys included), the plugin's schema and the README's table are made from it.
import { ConfigurationError } from "./client/errors";
import { isRecord } from "../api/guards";

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
  /** Tags every resource with tags carries unless it gives the key itself (methods/tag-rules.ts). */
  defaultTags?: Record<string, string>;
  /** Tags someone else owns: never diffed, written or removed (methods/tag-rules.ts). */
  ignoreTags?: IgnoreTags;
}

/** The tags a stack leaves to others: these keys, and every key starting with one of the prefixes. */
export interface IgnoreTags {
  keys: string[];
  keyPrefixes: string[];
}

/** Looks a `cims:` key up in the provider's configuration (without the namespace). */
export type ConfigLookup = (key: string) => string | undefined;

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

/** A value's text (undefined: not given) parsed, or a ConfigurationError naming the key as `name`. */
type Parse<T> = (value: string | undefined, name: string, naming: KeyNaming) => T;

export interface ConfigEntry {
  /** The environment variable read when the key is not given. */
  env?: string;
  /** Its type in the plugin's schema (a value arrives as text on the dynamic face; an object as its JSON). */
  type: "string" | "integer" | "number" | "boolean" | "object";
  /** An object's shape in the plugin's schema (package-schema.ts), where `type` alone cannot say it. */
  schema?: { additionalProperties: { type: "string" } } | { $ref: string };
  /** Its value when given neither way; absent: none, or `required`. */
  default?: string | number | boolean;
  required?: true;
  secret?: true;
  /** What it does, for the schema's description and the README's table. */
  words: string;
  /** Where the README sends a reader for more. */
  more?: string;
  parse: Parse<unknown>;
}

/** A key with a default: absent, it is the default; given, `parse` must accept it. */
function withDefault<T extends string | number | boolean>(fallback: T, parse: (value: string, name: string) => T) {
  return {
    default: fallback,
    parse: (value: string | undefined, name: string): T => (value === undefined ? fallback : parse(value, name)),
  };
}

/** A key without a default: absent, it is undefined. */
function optional<T>(parse: (value: string, name: string) => T) {
  return { parse: (value: string | undefined, name: string): T | undefined => (value === undefined ? undefined : parse(value, name)) };
}

/** Every `cims:` key the provider reads, in the order messages, the schema and the README list them. */
export const CONFIG_TABLE = {
  apiUrl: {
    env: "CIMS_API_URL",
    type: "string",
    required: true,
    words: "Base URL of the CIMS API; it may carry a path prefix.",
    parse: (value: string | undefined, _name: string, naming: KeyNaming) => parseApiUrl(value, naming),
  },
  apiKey: {
    env: "CIMS_API_KEY",
    type: "string",
    required: true,
    secret: true,
    words:
      "API key, sent as `Authorization: apikey <key>`; never shown in an output, an error or a log line the provider writes (a key of 8 or more characters). Pulumi's own verbose logs (`-v=7` and up) print it when it is stack config.",
    parse: (value: string | undefined, _name: string, naming: KeyNaming) => requireApiKey(value, naming),
  },
  projectId: {
    env: "CIMS_PROJECT_ID",
    type: "integer",
    words: "Default `projectId` of resources.",
    ...optional((value, name) => integer(name, value, 1)),
  },
  regionId: {
    env: "CIMS_REGION_ID",
    type: "integer",
    words: "Default `regionId` of resources.",
    ...optional((value, name) => integer(name, value, 1)),
  },
  taskTimeoutSeconds: {
    type: "integer",
    words: "How long to wait for a resource's tasks, in seconds, unless its `timeouts` or `customTimeouts` say otherwise.",
    ...withDefault(1800, (value, name) => integer(name, value, 1)),
  },
  taskPath: {
    type: "string",
    words: "Task status path (the API leaves its prefix open); it contains `{task_id}`.",
    ...withDefault("/cloud/v1/tasks/{task_id}", (value, name) => parseTaskPath(name, value)),
  },
  maxRetries: {
    type: "integer",
    words: 'Retries per request (a 409 "locked by a running task" and a 429 retry until the deadline).',
    ...withDefault(5, (value, name) => integer(name, value, 0)),
  },
  connectTimeoutSeconds: {
    type: "number",
    words: "HTTP connect timeout, in seconds.",
    ...withDefault(5, (value, name) => positive(name, value, "seconds")),
  },
  requestTimeoutSeconds: {
    type: "number",
    words: "HTTP request timeout, in seconds.",
    ...withDefault(120, (value, name) => positive(name, value, "seconds")),
  },
  coalesceReads: {
    env: "CIMS_COALESCE_READS",
    type: "boolean",
    words: "Refresh reads subnets and images through one list request per scope; `false`: a GET each.",
    more: "docs/api-client.md#coalesced-reads",
    ...withDefault(true, (value, name) => boolean(name, value)),
  },
  skipCredentialsValidation: {
    env: "CIMS_SKIP_CREDENTIALS_VALIDATION",
    type: "boolean",
    words: "`true`: skip the read that proves the key and the URL before the first call.",
    more: "docs/using.md#the-key-and-the-url-are-proven-at-preview",
    ...withDefault(false, (value, name) => boolean(name, value)),
  },
  maxRequestsPerSecond: {
    env: "CIMS_MAX_REQUESTS_PER_SECOND",
    type: "number",
    words:
      "At most this many requests a second from the provider; without it, as many as the service accepts, learned from its 429 answers. Stacks that run at once on one key split its budget with it.",
    more: "docs/api-client.md#the-rate-limit",
    ...optional((value, name) => positive(name, value, "requests per second")),
  },
  defaultTags: {
    type: "object",
    schema: { additionalProperties: { type: "string" } },
    words:
      "Tags (key to text) merged into the `tags` of every resource that has tags; a resource's own tag of the same key wins. Removing a key here removes it from the records that had it from here.",
    more: "docs/using.md#default-tags-and-ignored-tags",
    ...optional((value, name) => parseDefaultTags(name, value)),
  },
  ignoreTags: {
    type: "object",
    schema: { $ref: "#/types/cims:index:IgnoreTags" },
    words:
      "Tags others own, `{keys, keyPrefixes}`: a tag with one of the keys, or a key starting with one of the prefixes, is never diffed, written or removed, on any resource.",
    more: "docs/using.md#default-tags-and-ignored-tags",
    ...optional((value, name) => parseIgnoreTags(name, value)),
  },
} as const satisfies Record<string, ConfigEntry>;

export type ConfigKey = keyof typeof CONFIG_TABLE;

export const isConfigKey = (key: string): key is ConfigKey => Object.hasOwn(CONFIG_TABLE, key);

/** Every key, in the table's order. */
export const CONFIG_KEYS: readonly ConfigKey[] = Object.keys(CONFIG_TABLE).filter(isConfigKey);

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

/** The client's settings when nothing is configured but the key and the URL. */
export const DEFAULTS = {
  taskTimeoutSeconds: CONFIG_TABLE.taskTimeoutSeconds.default,
  taskPath: CONFIG_TABLE.taskPath.default,
  maxRetries: CONFIG_TABLE.maxRetries.default,
  connectTimeoutMs: CONFIG_TABLE.connectTimeoutSeconds.default * 1000,
  requestTimeoutMs: CONFIG_TABLE.requestTimeoutSeconds.default * 1000,
  coalesceReads: CONFIG_TABLE.coalesceReads.default,
  skipCredentialsValidation: CONFIG_TABLE.skipCredentialsValidation.default,
} as const;

/**
 * Why `cims:<key>` (`key` as an explicit provider's argument) is refused, naming the keys read
 * and the one it most likely meant.
 */
export function unknownKeyReason(key: string, naming: KeyNaming): string {
  const near = CONFIG_KEYS.find((k) => k.toLowerCase() === key.toLowerCase());
  const taken = CONFIG_KEYS.map((k) => naming.name(k)).join(", ");
  const stack = naming === STACK_CONFIG;
  return [
    stack
      ? `\`cims:${key}\` is not a configuration key of the cims provider (it reads ${taken})`
      : `\`${key}\` is not an argument of the cims provider (it takes ${taken})`,
    near ? `; did you mean \`${naming.name(near)}\`?` : "",
    stack ? "; a key not meant for the provider belongs in another namespace than `cims:`" : "",
  ].join("");
}

/**
 * Why the stack's config is refused for its `cims:` keys that no entry of the table reads (a
 * typo such as `cims:projectID` would otherwise be ignored), or undefined when there are none.
 */
export function unknownStackKeys(keys: Iterable<string>): string | undefined {
  const unknown = [...keys].filter((k) => k.startsWith("cims:") && !isConfigKey(k.slice("cims:".length)));
  return unknown.length > 0 ? unknown.map((k) => unknownKeyReason(k.slice("cims:".length), STACK_CONFIG)).join("\n") : undefined;
}

/** A key's text from the config, else from its environment variable; a blank value counts as absent. */
function reader(config: ConfigLookup, env: NodeJS.ProcessEnv): (key: ConfigKey) => string | undefined {
  const present = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  return (key) => {
    const entry: ConfigEntry = CONFIG_TABLE[key];
    return present(config(key)) ?? (entry.env ? present(env[entry.env]) : undefined);
  };
}

/** A key's value by its table entry's parse (given as `parse`, so its type is kept). */
function settingOf(config: ConfigLookup, env: NodeJS.ProcessEnv, naming: KeyNaming) {
  const get = reader(config, env);
  return <T>(key: ConfigKey, parse: Parse<T>): T => parse(get(key), naming.name(key), naming);
}

/**
 * The default projectId/regionId of resources. Needs no API key, so check() can fill them
 * during preview; an invalid value throws a ConfigurationError naming the key.
 */
export function resolveScope(
  config: ConfigLookup = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): { projectId?: number; regionId?: number } {
  const of = settingOf(config, env, STACK_CONFIG);
  return { projectId: of("projectId", CONFIG_TABLE.projectId.parse), regionId: of("regionId", CONFIG_TABLE.regionId.parse) };
}

/**
 * The tag settings (`cims:defaultTags`, `cims:ignoreTags`). Need no API key, so check() can
 * merge and refuse tags during preview; an invalid value throws a ConfigurationError naming the key.
 */
export function resolveTags(
  config: ConfigLookup = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): { defaultTags: Record<string, string>; ignoreTags: IgnoreTags } {
  const of = settingOf(config, env, STACK_CONFIG);
  return {
    defaultTags: of("defaultTags", CONFIG_TABLE.defaultTags.parse) ?? {},
    ignoreTags: of("ignoreTags", CONFIG_TABLE.ignoreTags.parse) ?? { keys: [], keyPrefixes: [] },
  };
}

export function resolveSettings(config: ConfigLookup = () => undefined, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  const of = settingOf(config, env, STACK_CONFIG);
  const t = CONFIG_TABLE;
  const settings: ProviderSettings = {
    apiUrl: of("apiUrl", t.apiUrl.parse),
    projectId: of("projectId", t.projectId.parse),
    regionId: of("regionId", t.regionId.parse),
    taskTimeoutSeconds: of("taskTimeoutSeconds", t.taskTimeoutSeconds.parse),
    taskPath: of("taskPath", t.taskPath.parse),
    maxRetries: of("maxRetries", t.maxRetries.parse),
    connectTimeoutMs: Math.round(of("connectTimeoutSeconds", t.connectTimeoutSeconds.parse) * 1000),
    requestTimeoutMs: Math.round(of("requestTimeoutSeconds", t.requestTimeoutSeconds.parse) * 1000),
    coalesceReads: of("coalesceReads", t.coalesceReads.parse),
    skipCredentialsValidation: of("skipCredentialsValidation", t.skipCredentialsValidation.parse),
    maxRequestsPerSecond: of("maxRequestsPerSecond", t.maxRequestsPerSecond.parse),
    defaultTags: of("defaultTags", t.defaultTags.parse),
    ignoreTags: of("ignoreTags", t.ignoreTags.parse),
    apiKey: of("apiKey", t.apiKey.parse),
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
  const of = settingOf(config, env, naming);
  for (const key of CONFIG_KEYS) {
    const entry: ConfigEntry = CONFIG_TABLE[key];
    try {
      of(key, entry.parse);
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

function boolean(name: string, value: string): boolean {
  if (value === "true" || value === "false") return value === "true";
  throw new ConfigurationError(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

function integer(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigurationError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function positive(name: string, value: string, unit: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigurationError(`${name} must be a positive number of ${unit}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseTaskPath(name: string, value: string): string {
  if (!value.startsWith("/") || !value.includes("{task_id}")) {
    throw new ConfigurationError(`${name} must start with "/" and contain {task_id}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The service's limit on a tag's key and on its value. */
const TAG_TEXT_MAX = 255;

/** The JSON object a key's text holds (stack config gives an object as its JSON). */
function jsonObject(name: string, value: string, example: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ConfigurationError(`${name} must be an object, such as ${example}; got ${JSON.stringify(value)}, which is not JSON`);
  }
  if (!isRecord(parsed)) throw new ConfigurationError(`${name} must be an object, such as ${example}; got ${JSON.stringify(value)}`);
  return parsed;
}

function parseDefaultTags(name: string, value: string): Record<string, string> {
  const example = '{"costCentre": "cc-42"}';
  const tags: Record<string, string> = {};
  for (const [key, v] of Object.entries(jsonObject(name, value, example))) {
    if (key.trim() === "" || key.length > TAG_TEXT_MAX) {
      throw new ConfigurationError(`${name}: a tag key must be 1 to ${TAG_TEXT_MAX} characters, got ${JSON.stringify(key)}`);
    }
    if (typeof v !== "string") {
      throw new ConfigurationError(
        `${name}: the value of tag "${key}" must be text, got ${JSON.stringify(v)}; quote it (${JSON.stringify({ [key]: String(v) })})`,
      );
    }
    if (v.length > TAG_TEXT_MAX) {
      throw new ConfigurationError(
        `${name}: the value of tag "${key}" is ${v.length} characters; a tag's value has at most ${TAG_TEXT_MAX}`,
      );
    }
    tags[key] = v;
  }
  return tags;
}

function parseIgnoreTags(name: string, value: string): IgnoreTags {
  const example = '{"keys": ["owner"], "keyPrefixes": ["k8s.io/"]}';
  const given = jsonObject(name, value, example);
  const extra = Object.keys(given).filter((k) => k !== "keys" && k !== "keyPrefixes");
  if (extra.length > 0) {
    throw new ConfigurationError(
      `${name} takes \`keys\` and \`keyPrefixes\` only, got ${extra.map((k) => `\`${k}\``).join(", ")}; such as ${example}`,
    );
  }
  const list = (field: "keys" | "keyPrefixes", what: string): string[] => {
    const v = given[field] ?? [];
    if (!Array.isArray(v) || !v.every((item): item is string => typeof item === "string")) {
      throw new ConfigurationError(`${name}.${field} must be a list of ${what}, got ${JSON.stringify(v)}`);
    }
    if (v.some((item) => item === "")) {
      throw new ConfigurationError(
        field === "keys"
          ? `${name}.keys holds an empty key, which no tag has; remove it`
          : `${name}.keyPrefixes holds an empty prefix, which every key starts with: it would leave every tag alone; remove it, or list the keys in ${name}.keys`,
      );
    }
    return v;
  };
  return { keys: list("keys", "tag keys"), keyPrefixes: list("keyPrefixes", "key prefixes") };
}
