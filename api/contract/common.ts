// Field types several tables share.
import type { ArrayType, BooleanType, IntegerType, StringType, TagsType } from "./types";
import { INT64_MAX, INT64_MIN } from "../quotas";

export const text = { kind: "string" } as const satisfies StringType;
export const name = { kind: "string", nonBlank: true } as const satisfies StringType;
export const uuid4 = { kind: "string", format: "uuid4" } as const satisfies StringType;
export const ip = { kind: "string", format: "ip" } as const satisfies StringType;
export const cidr = { kind: "string", format: "cidr" } as const satisfies StringType;
export const boolean = { kind: "boolean" } as const satisfies BooleanType;
export const tags = { kind: "tags" } as const satisfies TagsType;

/** An enum, by its name in the SDKs (`LbAlgorithm`: the vendor SDK's where it has one). */
export function oneOf<const T extends readonly string[]>(name: string, values: T) {
  return { kind: "string", name, enum: values } as const satisfies StringType;
}

/** An enum whose values have other spellings too (`aliases`), and that records spell their own way. */
export function oneOfSpelled<const T extends readonly string[], const A extends Readonly<Record<string, T[number]>>>(
  name: string,
  values: T,
  spellings: { aliases: A; recordSpelling: Readonly<Record<string, string>> },
) {
  return { kind: "string", name, enum: values, ...spellings } as const satisfies StringType;
}

export function integer(min: number, max: number, unit?: string): IntegerType & { readonly kind: "integer" } {
  return unit ? { kind: "integer", min, max, unit } : { kind: "integer", min, max };
}

export function arrayOf<const T extends ArrayType["items"]>(
  items: T,
  options: { unique?: ArrayType["unique"]; unordered?: true } = {},
): { readonly kind: "array"; readonly items: T; readonly unique?: ArrayType["unique"]; readonly unordered?: true } {
  return { kind: "array", items, ...options };
}
export const dateTime = { kind: "string", format: "dateTime" } as const satisfies StringType;
/** A signed 64-bit integer (quota numbers, IPv6 address counts): exact on the wire, a decimal string in Pulumi. */
export const int64 = { kind: "integer", min: INT64_MIN, max: INT64_MAX, int64: true } as const satisfies IntegerType;
/** An integer id or count the service assigns (project and region ids, sizes). */
export const count = { kind: "integer", min: 0, max: Number.MAX_SAFE_INTEGER } as const satisfies IntegerType;
/** An id the service assigns that a program names: a positive safe integer (a policy's, a client's). */
export const positiveId = { kind: "integer", min: 1, max: Number.MAX_SAFE_INTEGER } as const satisfies IntegerType;
