// check()'s validation: the contract read by api/schema.ts on the program's face (camelCase,
// int64 as a number or a decimal string, the provider's own inputs beside the contract's
// fields, its create mark a reserved tag). Pulumi's unknown value is accepted anywhere during
// preview; failures are {property, reason} with camelCase paths such as `members[1].protocolPort`.
import { z } from "zod";
import type { BodyContract, Field } from "../../api/contract";
import { type CheckFailure, contractSchema, programFailures, valueSchema } from "../../api/schema";
import { CREATE_MARK_TAG } from "./mark";

export type { CheckFailure };

/** What Pulumi passes for values not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Inputs = Record<string, unknown>;

/** Validates; issues at (or inside) a value that is still unknown are not failures yet. */
export function validate(schema: z.ZodType, input: Inputs): CheckFailure[] {
  return programFailures(schema, input, UNKNOWN);
}

const RESERVED_TAGS = { [CREATE_MARK_TAG]: "pulumi-cims sets it while a create runs" };

const ownSchemas = new WeakMap<object, Record<string, z.ZodType>>();

/**
 * A resource's inputs: the contract's fields, the provider's own (`own`, each checked by its
 * type like any field: how timeouts combine with customTimeouts is context.ts deadlineFor),
 * the contract's rules.
 */
export function inputsSchema(contract: BodyContract, own: Readonly<Record<string, Field>>): z.ZodType {
  let extra = ownSchemas.get(own);
  if (!extra) {
    extra = {};
    for (const [name, f] of Object.entries(own)) {
      const schema = valueSchema(f.type, { face: "program" });
      extra[name] = f.required ? schema : schema.optional();
    }
    ownSchemas.set(own, extra);
  }
  return contractSchema(contract, { face: "program", extra, reservedTags: RESERVED_TAGS });
}

/** Drops Pulumi's bookkeeping before validation. */
export function userInputs(news: Inputs): Inputs {
  const { __provider: _provider, ...rest } = news;
  return rest;
}

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** Whether every value is given and known (what a preview cannot check until they are). */
export const allKnown = (...values: unknown[]): boolean => values.every((v) => v !== undefined && !isUnknown(v));

/** Whether Pulumi's unknown sentinel sits anywhere in this value (preview of computed inputs). */
export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(containsUnknown);
}
