// Narrowing what the engine and the service hand us (inputs, state, records: JSON of unknown
// shape) to what a method needs, by checking rather than asserting.
import type { Inputs } from "./schema";

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Inputs {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The objects of a list (anything else: none). */
export function recordsIn(value: unknown): Inputs[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** The strings of a list (anything else: none). */
export function stringsIn(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export { messageOf } from "../../api/errors";
