// camelCase outside (Pulumi), snake_case on the wire: one mapping for every API-defined
// name. Never applied to user data (tag keys).

/** `protocol_port` -> `protocolPort`; `keypair_count_limit` -> `keypairCountLimit`. */
export function toCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `protocolPort` -> `protocol_port`; the inverse of toCamel for API names. */
export function toSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `LbPoolSettings` -> `lb-pool-settings`: a kind's file name, in every folder that has one per kind. */
export function toKebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

/**
 * An enum value's name in the SDKs, from its words: `ROUND_ROBIN` -> `RoundRobin`, `TLS-HELLO` ->
 * `TlsHello`, `x86_64` -> `X86_64`, `1.0` -> `V1_0` (a name starts with a letter).
 */
export function enumMemberName(value: string): string {
  let name = "";
  for (const w of value.split(/[^A-Za-z0-9]+/).filter(Boolean)) {
    const word = w[0].toUpperCase() + w.slice(1).toLowerCase();
    name += /[0-9]$/.test(name) && /^[0-9]/.test(word) ? `_${word}` : word;
  }
  return /^[0-9]/.test(name) ? `V${name}` : name;
}

/** A field path from the service (`members[1].protocol_port`) as users wrote it. */
export function camelPath(path: string): string {
  return toCamel(path);
}

/** `["members", 1, "protocolPort"]` -> `members[1].protocolPort`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}
