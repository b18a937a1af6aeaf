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

/** A field path from the service (`members[1].protocol_port`) as users wrote it. */
export function camelPath(path: string): string {
  return toCamel(path);
}

/** `["members", 1, "protocolPort"]` -> `members[1].protocolPort`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)), "");
}
