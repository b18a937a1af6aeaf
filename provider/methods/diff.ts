// Field-by-field diff of normalized inputs: what changed, which changes force a
// replacement, and nothing at all when values are equal after normalisation (object key
// order never matters; arrays compare in order unless a field says otherwise).
import type * as pulumi from "@pulumi/pulumi";
import { type Inputs, UNKNOWN } from "./schema";
import { isRecord } from "../../api/guards";

export interface FieldRule {
  name: string;
  /** A change cannot be made in place. */
  replaces?: boolean;
  /** Omitted means "whatever the service chose": an omitted new value is never a change. */
  autoWhenOmitted?: boolean;
  /** Equality after normalisation (e.g. members keyed by address+port). */
  equal?: (a: unknown, b: unknown) => boolean;
}

/** Deep equality that ignores object key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "bigint" || typeof b === "bigint") return String(a) === String(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/**
 * A kind's diff: the engine's answer, and the fields it found changed, so that the plugin's
 * detailed diff shows exactly what the kind decided (never a second reading of the inputs).
 */
export interface KindDiff extends pulumi.dynamic.DiffResult {
  diffs: string[];
}

/** The fields whose value differs between the old state and the new inputs. */
export function changedFields(olds: Inputs, news: Inputs, rules: FieldRule[]): FieldRule[] {
  return rules.filter((rule) => {
    const next = news[rule.name];
    if (next === UNKNOWN) return true;
    if (next === undefined && rule.autoWhenOmitted) return false;
    return !(rule.equal ?? sameValue)(olds[rule.name], next);
  });
}

/**
 * `deleteBeforeReplace`: a replacement must delete the old resource first. Said whether or not
 * this diff replaces: `pulumi up --replace` replaces a resource whose diff is empty, and the
 * engine takes the order from the diff.
 */
export function diffResult(changed: FieldRule[], deleteBeforeReplace = false): KindDiff {
  const replaces = changed.filter((r) => r.replaces).map((r) => r.name);
  return { changes: changed.length > 0, replaces, deleteBeforeReplace, diffs: changed.map((r) => r.name) };
}
