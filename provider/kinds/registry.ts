// The kinds by name, derived from the registry (./index.ts): `Kind` is its names, and
// KIND_NAMES their order. The dynamic face's door (../resources/install.ts), the plugin and
// cims-import find kinds here. Engine modules (../methods/) never import this file.
import { verifyCredentials } from "../methods/context";
import type { Methods } from "../methods/install";
import type { KindEntry } from "../methods/kind-entry";
import * as KINDS from "./index";
import type { ExampleProgram, WithExample } from "./program-model";

export type Kind = keyof typeof KINDS;

export function isKind(name: string): name is Kind {
  return Object.hasOwn(KINDS, name);
}

/** Every kind's name, in the registry's order. */
export const KIND_NAMES: readonly Kind[] = Object.keys(KINDS).filter(isKind);

/** Every kind carries its docs example: a kind registered without one fails the typecheck here. */
const EXAMPLES: Readonly<Record<Kind, WithExample>> = KINDS;

/**
 * A kind's docs example (its <kind>.example.ts, attached where the kind is made), each
 * declaration's type held to a registered kind: scripts/gen.ts renders it into the kind's
 * page, and tests/e2e/tools/docs-examples.test.ts deploys them all.
 */
export function exampleOf(name: Kind): ExampleProgram<Kind> {
  return registeredExample(name, EXAMPLES[name].example);
}

/** `example` (the docs example of `name`) with each declaration's type held to a registered kind. */
export function registeredExample(name: Kind, example: ExampleProgram): ExampleProgram<Kind> {
  const registered = (type: string): Kind => {
    if (isKind(type)) return type;
    throw new Error(`${name}'s example declares a ${type}, which is no registered kind: set its type to one of ${KIND_NAMES.join(", ")}`);
  };
  return { ...example, declarations: example.declarations.map((d) => ({ ...d, type: registered(d.type) })) };
}

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
