// The lifecycle model's rows of the kinds whose test kits give them (tests/kits/kit.ts,
// `lifecycle` a LifecycleModel): what the program declares of each, the edits, additions and
// removals the generator draws, and what the invariants compare after each command. A kind
// with such a kit is in the model with no line here.
import fc from "fast-check";
import { KIND_NAMES, type Kind } from "../../provider/kinds/registry";
import { KITS } from "../kits";
import type { Holds, LifecycleModel, ModelValues, Seen, StateResource } from "../kits/kit";

/** The resources of the kit-modelled kinds the program declares: each kind's slots, a slot's values or undefined. */
export type KitResources = Partial<Record<Kind, Array<ModelValues | undefined>>>;

/** The kinds whose kits give their lifecycle rows, in the registry's order, with them. */
export const KIT_MODELS: ReadonlyArray<readonly [Kind, LifecycleModel]> = KIND_NAMES.flatMap((k) => {
  const model = KITS[k].lifecycle;
  return typeof model === "object" ? [[k, model] as const] : [];
});

/** The first program's resources of those kinds (each kit's `start`). */
export function initialKitResources(): KitResources {
  return Object.fromEntries(KIT_MODELS.map(([k, m]) => [k, m.names.map((_n, slot) => m.start?.[slot] && { ...m.start[slot] })]));
}

/** A resource of the program, of a kit-modelled kind. */
export interface KitResource {
  kind: Kind;
  model: LifecycleModel;
  slot: number;
  /** Its Pulumi name. */
  name: string;
  values: ModelValues | undefined;
}

/** Every slot of every kit-modelled kind, declared or not. */
export function kitSlots(resources: KitResources): KitResource[] {
  return KIT_MODELS.flatMap(([kind, model]) =>
    model.names.map((name, slot) => ({ kind, model, slot, name, values: resources[kind]?.[slot] })),
  );
}

/** The program's lines of those resources: `new cims.<Kind>(name, args)`. */
export function kitLines(resources: KitResources): string[] {
  return kitSlots(resources).flatMap(({ kind, model, slot, name, values }) =>
    values ? [`new cims.${kind}(${JSON.stringify(name)}, ${JSON.stringify(model.args(values, slot))});`] : [],
  );
}

const show = (v: unknown) => (v === undefined ? "omitted" : JSON.stringify(v));

/** A change of the program's kit-modelled resources: what it says, when it applies, what it does. */
export interface KitEdit {
  label: string;
  valid(resources: KitResources): boolean;
  apply(resources: KitResources): void;
}

const slotsOf = (resources: KitResources, kind: Kind, model: LifecycleModel) => (resources[kind] ??= model.names.map(() => undefined));

/** Each kit-modelled kind's edits: each field set to each of its values, each slot added and removed. */
export function kitEdits(): Array<fc.Arbitrary<KitEdit>> {
  return KIT_MODELS.flatMap(([kind, model]) => {
    const slot = fc.integer({ min: 0, max: model.names.length - 1 });
    const declared = (r: KitResources, i: number) => r[kind]?.[i] !== undefined;
    const fields = Object.entries(model.fields).map(([field, values]) =>
      fc.tuple(slot, fc.constantFrom(...values)).map(([i, value]): KitEdit => ({
        label: `edit ${model.names[i]}.${field} = ${show(value)}`,
        valid: (r) => declared(r, i),
        apply: (r) => {
          const slots = slotsOf(r, kind, model);
          slots[i] = { ...slots[i], [field]: value === undefined ? undefined : JSON.parse(JSON.stringify(value)) };
        },
      })),
    );
    const add = slot.map((i): KitEdit => ({
      label: `add ${model.names[i]} (${kind})`,
      valid: (r) => !declared(r, i),
      apply: (r) => void (slotsOf(r, kind, model)[i] = model.added(i)),
    }));
    const remove = slot.map((i): KitEdit => ({
      label: `remove ${model.names[i]} (${kind})`,
      valid: (r) => declared(r, i),
      apply: (r) => void (slotsOf(r, kind, model)[i] = undefined),
    }));
    return [...fields, add, remove];
  });
}

const nameOf = (r: StateResource) => r.urn.split("::").pop() ?? "";

/**
 * After a successful `up`: each declared resource's record as the program says (`holds`), and
 * what the service holds of each slot the program does not declare (`absent`).
 */
export function kitHoldsAfterUp(env: Seen, resources: KitResources, state: StateResource[]): Holds {
  return kitSlots(resources).flatMap(({ kind, model, slot, name, values }): Holds => {
    if (!values) return (model.absent?.(env, slot) ?? []).map(([what, a, e]) => [`${name} (not declared): ${what}`, a, e] as const);
    const res = state.find((r) => nameOf(r) === name);
    const record = res && KITS[kind].example.record(env, res);
    if (!record) return [[`${name}: its record in the service`, undefined, `the record of state id ${String(res?.id)}`]];
    return model.holds(record, values, slot).map(([what, a, e]) => [`${name}.${what}`, a, e] as const);
  });
}

/** After a successful refresh: each state resource of a kit-modelled kind as the service's record. */
export function kitHoldsAfterRefresh(env: Seen, state: StateResource[]): Holds {
  return kitSlots({}).flatMap(({ kind, model, name }): Holds => {
    const res = state.find((r) => nameOf(r) === name);
    if (!res || !model.refreshed) return [];
    const record = KITS[kind].example.record(env, res);
    return model.refreshed(res.outputs ?? {}, record).map(([what, a, e]) => [`${name} after refresh: ${what}`, a, e] as const);
  });
}

/** After a successful destroy: what the service holds of every slot (none is declared any more). */
export function kitHoldsAfterDestroy(env: Seen): Holds {
  return kitSlots({}).flatMap(({ model, slot, name }) =>
    (model.absent?.(env, slot) ?? []).map(([what, a, e]) => [`${name} after destroy: ${what}`, a, e] as const),
  );
}
