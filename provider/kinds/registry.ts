// The kinds by name, derived from the registry (./index.ts): `Kind` is its names, and
// KIND_NAMES their order. The dynamic face's door (../resources/install.ts), the plugin and
// cims-import find kinds here. Engine modules (../methods/) never import this file.
import { verifyCredentials } from "../methods/context";
import type { Methods } from "../methods/install";
import type { KindEntry } from "../methods/kind-entry";
import * as KINDS from "./index";

export type Kind = keyof typeof KINDS;

export function isKind(name: string): name is Kind {
  return Object.hasOwn(KINDS, name);
}

/** Every kind's name, in the registry's order. */
export const KIND_NAMES: readonly Kind[] = Object.keys(KINDS).filter(isKind);

const loaded = new Map<Kind, KindEntry>();

/** A kind's descriptor, table and methods, its check() also proving the key (see below). */
export function kind(name: Kind): KindEntry {
  let entry = loaded.get(name);
  if (!entry) {
    const { methods, ...rest } = KINDS[name];
    entry = { ...rest, methods: { ...methods, check: provenCheck(methods.check) } };
    loaded.set(name, entry);
  }
  return entry;
}

/**
 * check() that also proves the key and the URL (context.ts), after the inputs passed: a
 * preview whose every resource is unchanged sends no other request, and inputs that fail
 * their rules fail with those rules, with no request at all.
 */
function provenCheck(check: Methods["check"]): Methods["check"] {
  return async (olds, news) => {
    const result = await check(olds, news);
    if ((result.failures?.length ?? 0) === 0) await verifyCredentials();
    return result;
  };
}
