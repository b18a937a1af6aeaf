// One field table per resource, from its descriptor: the contract's fields (api/contract)
// plus the provider's own inputs (projectId, timeouts...). From it come check()'s schema and
// defaults, the diff rules (a field set only at creation replaces; one the service fills, or
// any of a settings resource, is unmanaged when omitted), the create body, the PATCH body
// and the outputs read from a record. Pure: no I/O (what the engine is told, the callers say).
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { Field, FieldType, RecordField } from "../../api/contract";
import { absentValue, nullWords, omission, recordName } from "../../api/contract";
import { MEMBER_NOT_IN_RECORD, MEMBER_SETTINGS, memberKey, memberSetting } from "../../api/members";
import { canonicalValue } from "../../api/canonical";
import { toCamel, toSnake } from "../../api/names";
import type { Descriptor } from "./descriptor";
import { changedFields, diffResult, type FieldRule, type KindDiff, sameValue } from "./diff";
import { type ScopeDefaults, withScope } from "./scope";
import { withoutMark } from "./mark";
import { tagSettings } from "./context";
import { ownTags, withDefaultTags, withoutIgnored } from "./tag-rules";
import { containsUnknown, inputsSchema, type Inputs, userInputs, validate } from "./schema";
import { fromWire, hasMembers, knownMembersOnly, plainRecord, SERVICE_SET, tagPatch, toWire } from "../../api/wire";
import { type ApiRecord, isRecord, recordsIn, stringsIn } from "../../api/guards";

export interface Table {
  schema: z.ZodType;
  rules: FieldRule[];
  /**
   * check(): every rule of the contract and the provider's inputs, with Pulumi's unknowns
   * allowed; defaults filled (the scope's from `scope`) and values normalized, so the state
   * is explicit and stable.
   */
  check(olds: Inputs, news: Inputs, scope?: () => ScopeDefaults): pulumi.dynamic.CheckResult;
  /** diff(): the changed fields, and whether any of them replaces. */
  diff(olds: Inputs, news: Inputs, deleteBeforeReplace?: boolean): KindDiff;
  /**
   * The line `preview` shows when optional arguments were removed from the program: the
   * service keeps their values and the stack stops managing them.
   */
  unmanagedNote(olds: Inputs, news: Inputs): string | undefined;
  /** The contract's defaults for fields the program omitted, so the state is explicit. */
  defaults(given: Inputs): Inputs;
  /**
   * Given values in the form outputs have (int64 as decimal strings, nested defaults filled),
   * so that state and diffs compare like with like. Values holding an unknown stay as given.
   */
  normalize(given: Inputs): Inputs;
  /** The create (or PUT) body: every given field, snake_case, exact integers; null is sent. */
  body(inputs: Inputs): ApiRecord;
  /** The fields to send for these changed fields: in-place ones, tags as a merge patch. */
  patch(olds: Inputs, news: Inputs, changed: readonly string[]): ApiRecord;
  /** Changed fields set to null that are removed by a DELETE of their own rather than in the body. */
  removals(news: Inputs, changed: readonly string[]): string[];
  /**
   * The contract's fields as the service's record has them, and the record's extras. With
   * `like` (the inputs, or the previous state): unordered lists keep its order, and a
   * settings resource only the fields it holds.
   */
  fromRecord(record: ApiRecord, like?: Inputs): Inputs;
  /** What create and update record: the inputs, then the record, which optional arguments were given, and the tasks. */
  outputs(inputs: Inputs, record: ApiRecord, taskIds: string[]): Inputs;
  /**
   * An update's outputs (`outs`, from the record it answered) with the program's fields it did
   * not write (`written`) as the state had them: what changed outside Pulumi since the last
   * refresh stays out of the state, so the next preview shows no change the program did not
   * make (a refresh reads it, and the diff then shows it). Tags are written key by key, so the
   * record may hold keys added outside Pulumi: written tags are the program's.
   */
  updated(outs: Inputs, olds: Inputs, news: Inputs, written: readonly string[]): Inputs;
}

const nullishList = (a: unknown, b: unknown) => sameValue(a ?? [], b ?? []);

/** Members compare as a set by address + port, on the fields a program gave (the service adds ids). */
export function sameMembers(olds: unknown, news: unknown): boolean {
  const a = recordsIn(olds);
  const b = recordsIn(news);
  if (a.length !== b.length) return false;
  const byKey = new Map(a.map((m) => [memberKey(m.address, m.protocolPort), m]));
  return b.every((m) => {
    const old = byKey.get(memberKey(m.address, m.protocolPort));
    // An instance the service's records do not show is compared only with one the state holds.
    const same = (f: string) =>
      m[f] === undefined ||
      (MEMBER_NOT_IN_RECORD.has(f) && old?.[f] === undefined) ||
      sameValue(memberSetting(f, old?.[f]), memberSetting(f, m[f]));
    return old !== undefined && MEMBER_SETTINGS.every(same);
  });
}

/**
 * Members read from a record, with the settings records do not show (an instance) as `like`
 * (the state, or the program) holds them by address + port: a refresh cannot see them change.
 */
function withUnshownSettings(members: unknown, like: unknown): unknown {
  if (!Array.isArray(members)) return members;
  const byKey = new Map(recordsIn(like).map((m) => [memberKey(m.address, m.protocolPort), m]));
  return recordsIn(members).map((m) => {
    const old = byKey.get(memberKey(m.address, m.protocolPort));
    const unshown = [...MEMBER_NOT_IN_RECORD].filter((f) => m[f] === undefined && old?.[f] !== undefined);
    return unshown.length === 0 ? m : { ...m, ...Object.fromEntries(unshown.map((f) => [f, old![f]])) };
  });
}

/** The fields a program gave match (the service adds ids and defaults of its own). */
function sameGiven(olds: unknown, news: unknown): boolean {
  if (!isRecord(news) || !isRecord(olds)) return sameValue(olds ?? null, news ?? null);
  return Object.entries(news).every(([k, v]) => v === undefined || sameValue(olds[k], v));
}

/**
 * Equality of a field's old and new values, in the service's spelling (canonical addresses,
 * uuids and times; unordered lists as sets), on the fields a program gave where the service
 * adds its own (members' ids, a health monitor's defaults).
 */
function equality(field: Field, manageOnlyGiven: boolean): NonNullable<FieldRule["equal"]> {
  const t = field.type;
  // Quota members the contract does not know are the service's: a program cannot name them.
  const known = hasMembers(t) ? (v: unknown) => knownMembersOnly(v, t) : (v: unknown) => v;
  const canon = (v: unknown) => canonicalValue(known(v), t);
  if (t.kind === "tags") {
    // A tag others own is no difference, whichever side holds it (a state from before ignoreTags).
    const own = (v: unknown) => withoutIgnored(v, tagSettings().ignoreTags);
    return (a, b) => sameValue(own(canonicalValue(a, t)), own(canonicalValue(b, t)));
  }
  const base =
    t.kind === "array" && t.unique === "member"
      ? sameMembers
      : t.kind === "array" && field.nullable && field.serviceDefault
        ? nullishList
        : t.kind === "object" && manageOnlyGiven
          ? sameGiven
          : sameValue;
  return (a, b) => base(canon(a), canon(b));
}

/** Nested fields with a default get it when missing (a quota message's two parts). */
function fillDefaults(value: unknown, type: FieldType): unknown {
  if (type.kind === "array" && Array.isArray(value)) return value.map((v) => fillDefaults(v, type.items));
  if (type.kind !== "object" || !isRecord(value)) return value;
  const out: Inputs = { ...value };
  for (const [name, f] of Object.entries(type.fields)) {
    if (out[name] === undefined && f.default !== undefined) out[name] = f.default;
    else if (out[name] !== undefined) out[name] = fillDefaults(out[name], f.type);
  }
  return out;
}

/**
 * The state key saying which arguments the program gave, and of a nested value which parts
 * (see GivenShape). Its `__` prefix makes it the engine's internal property: never shown in
 * a diff, an output or `up`'s summary.
 */
export const GIVEN = "__given";
/** Where states written before GIVEN listed the optional arguments the program gave. */
const LEGACY_MANAGED_OPTIONAL = "managedOptional";

/**
 * What the program gave of one argument, without its value (a secret input would otherwise
 * be stored in plain text under a name the engine does not know to keep secret): `true`, the
 * whole value; the keys of an object whose other fields are the service's; of members, the
 * keys given per member id, and `other`: the keys a member the program did not give shows.
 */
type GivenShape = true | string[] | { members: Record<string, string[]>; other: string[] };
type Given = Record<string, GivenShape>;

const definedKeys = (value: unknown) => (isRecord(value) ? Object.keys(value).filter((k) => value[k] !== undefined) : []);

function pick(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(keys.filter((k) => value[k] !== undefined).map((k) => [k, value[k]]));
}

/**
 * An unordered list from the service in the order the program (or the state) had it, matched
 * by canonical value or member key; items it did not have go last, in the service's order.
 * Outputs then line up with inputs, so `preview --diff` shows no reordering that is not there.
 */
function inOrderOf(value: unknown, like: unknown, type: FieldType): unknown {
  if (type.kind !== "array" || !type.unordered || !Array.isArray(value) || !Array.isArray(like)) return value;
  const keyOf = (item: unknown) => {
    const c = canonicalValue(item, type.items);
    if (type.unique === "member" && isRecord(c)) return memberKey(c.address, c.protocolPort);
    return isRecord(c)
      ? JSON.stringify(
          Object.keys(c)
            .sort()
            .map((k) => [k, c[k]]),
        )
      : JSON.stringify(c);
  };
  const position = new Map(like.map((item, i) => [keyOf(item), i]));
  const rank = (item: unknown) => position.get(keyOf(item)) ?? like.length;
  return [...value].sort((a, b) => rank(a) - rank(b));
}

/** A wire value as outputs show it: the users' tags leave out the provider's create mark. */
const shown = (value: unknown, type: FieldType) => fromWire(value, type, undefined, usersTags);

/** The users' tags as the stack sees them: without the create mark and without the tags others own (`cims:ignoreTags`). */
const usersTags = (tags: Record<string, string>) => ownTags(withoutMark(tags), tagSettings().ignoreTags);

/** A value as outputs show it: the wire round trip, with nested defaults. */
const asOutput = (value: unknown, type: FieldType) => fillDefaults(shown(toWire(value, type), type), type);

/** Omitted means "as the service has it": the service's choice, or a setting the program does not manage. */
function leftToService(contract: Descriptor["contract"], f: Field): boolean {
  const rule = omission(contract, f);
  return rule === "service" || rule === "unmanaged";
}

/**
 * An input of the provider's own with a default is not written into the state when omitted
 * (deleteAdopted), so omitted and its default are the same value: a program that starts
 * spelling the default changes nothing.
 */
const orDefault =
  (d: unknown) =>
  (a: unknown, b: unknown): boolean =>
    sameValue(a ?? d, b ?? d);

/** The diff rules: the contract's fields, then the provider's own inputs (`set: "create"` replaces; `neverDiff` none). */
function diffRules(options: Descriptor): FieldRule[] {
  const { contract } = options;
  return [
    ...Object.entries(contract.fields).map(([name, f]) => ({
      name,
      replaces: f.set === "create",
      autoWhenOmitted: leftToService(contract, f),
      equal: equality(f, contract.omitted === "unmanaged"),
    })),
    ...Object.entries(options.own)
      .filter(([, f]) => !f.neverDiff)
      .map(([name, f]) => ({ name, replaces: f.set === "create", ...(f.default === undefined ? {} : { equal: orDefault(f.default) }) })),
  ];
}

/** Table.fromRecord: the contract's fields, the record's fields marked `output`, then what the kind maps. */
function recordReader(options: Descriptor): Table["fromRecord"] {
  const fields = Object.entries(options.contract.fields);
  const outputsFromRecord = Object.entries(options.contract.record).filter(([, f]) => f.output);
  return (record, like) => {
    const out: Inputs = {};
    for (const [name, f] of fields) {
      if (options.outputsOnlyGiven && like && like[name] === undefined) continue;
      // Not in the service's records (create-only instructions): the program's value stands.
      if (f.notInRecord) continue;
      const value = fillDefaults(shown(record[recordName(name, f)] ?? absentOutput(f), f.type), f.type);
      const kept = like && f.type.kind === "array" && f.type.unique === "member" ? withUnshownSettings(value, like[name]) : value;
      out[name] = like ? inOrderOf(kept, like[name], f.type) : kept;
    }
    for (const [wire, f] of outputsFromRecord) out[toCamel(wire)] = shown(record[wire] ?? absentRecordOutput(f), f.type);
    return plainRecord({ ...out, ...options.record?.(record) });
  };
}

/** Table.patch: the changed in-place fields, in the kind's spelling; tags as a merge patch. */
function patchWriter(options: Descriptor): Table["patch"] {
  const fields = Object.entries(options.contract.fields);
  return (olds, news, changed) => {
    const body: ApiRecord = {};
    for (const [name, f] of fields) {
      if (f.set !== "update" || !changed.includes(name) || news[name] === undefined) continue;
      if (f.removedByDelete && news[name] === null) continue; // removed by its own call (removals())
      if (f.type.kind !== "tags") body[toSnake(name)] = toWire(news[name], f.type, options.patchSpelling ?? "spec");
      else {
        // A merge patch of the stack's own tags: one others own is neither set nor removed.
        const { ignoreTags } = tagSettings();
        const patch = tagPatch(withoutIgnored(olds[name], ignoreTags), withoutIgnored(news[name], ignoreTags));
        if (Object.keys(patch).length > 0) body[toSnake(name)] = patch;
      }
    }
    return body;
  };
}

export function resourceTable(options: Descriptor): Table {
  const { contract } = options;
  const manageOnlyGiven = contract.omitted === "unmanaged";
  const fields = Object.entries(contract.fields);
  const unmanagedWhenOmitted = fields.filter(([, f]) => leftToService(contract, f)).map(([name]) => name);
  const tagsField = fields.find(([, f]) => f.type.kind === "tags")?.[0];
  const words = Object.entries(nullWords(contract.fields));
  /** The program's inputs with each null word as the null it stands for (Field.nullWord). */
  const spelledOut = (news: Inputs): Inputs => {
    const inputs = userInputs(news);
    for (const [name, word] of words) if (inputs[name] === word) inputs[name] = null;
    return inputs;
  };
  const table: Table = {
    schema: inputsSchema(contract, options.own),
    rules: diffRules(options),
    check(olds, news, scope = () => ({})) {
      const spelled = spelledOut(news);
      const tagged = tagsField ? withDefaultTags(spelled, tagsField, tagSettings()) : { inputs: spelled, failures: [] };
      const given = tagged.inputs;
      const scoped = options.scoped ? withScope(given, scope) : { inputs: given, failures: [] };
      const failures = [...validate(table.schema, scoped.inputs), ...scoped.failures, ...tagged.failures];
      const normalized = failures.length === 0 ? table.normalize(given) : {};
      return { inputs: plainRecord({ ...news, ...scoped.inputs, ...normalized, ...table.defaults(given) }), failures };
    },
    diff(olds, news, deleteBeforeReplace = false) {
      return diffResult(changedFields(olds, news, table.rules), deleteBeforeReplace);
    },
    /**
     * Removing such a field from the program means "stop managing it": the service keeps what
     * it has. Said in the preview, so it is never a surprise. The state says which of them the
     * program gave at the last create or update (a refresh keeps it).
     */
    unmanagedNote(olds, news) {
      const given = olds[GIVEN];
      const managed = isRecord(given)
        ? unmanagedWhenOmitted.filter((name) => given[name] !== undefined)
        : stringsIn(olds[LEGACY_MANAGED_OPTIONAL]);
      const dropped = managed.filter((name) => news[name] === undefined);
      if (dropped.length === 0) return undefined;
      return `${options.label(news)}: ${dropped.join(", ")} removed from the program: the service keeps the current value and the stack stops managing it`;
    },
    defaults(given) {
      const out: Inputs = {};
      for (const [name, f] of fields) if (given[name] === undefined && f.default !== undefined) out[name] = f.default;
      return out;
    },
    normalize(given) {
      const out: Inputs = {};
      for (const [name, f] of fields)
        if (given[name] !== undefined && !containsUnknown(given[name])) out[name] = asOutput(given[name], f.type);
      return out;
    },
    body(inputs) {
      const body: ApiRecord = {};
      for (const [name, f] of fields) if (inputs[name] !== undefined) body[toSnake(name)] = toWire(inputs[name], f.type, "spec");
      return body;
    },
    patch: patchWriter(options),
    removals(news, changed) {
      return fields.filter(([name, f]) => f.removedByDelete && changed.includes(name) && news[name] === null).map(([name]) => name);
    },
    fromRecord: recordReader(options),
    outputs(inputs, record, taskIds) {
      const given = userInputs(inputs);
      const state = table.fromRecord(record, inputs);
      const shape: Given = {};
      for (const name of definedKeys(given)) {
        const f: Field | undefined = Object.hasOwn(contract.fields, name) ? contract.fields[name] : undefined;
        shape[name] = f ? givenShapeOf(name, f, given[name], state[name], manageOnlyGiven) : true;
      }
      return { ...given, ...state, taskIds, [GIVEN]: shape };
    },
    updated(outs, olds, news, written) {
      const kept: Inputs = {};
      for (const [name, f] of fields) {
        if (news[name] === undefined || olds[name] === undefined) continue;
        if (!written.includes(name)) kept[name] = olds[name];
        else if (f.type.kind === "tags") kept[name] = news[name];
      }
      return { ...outs, ...kept };
    },
  };
  return table;
}

/** A record's output it lacks: a list (a policy's schedules) is empty unless the record may leave it out. */
const absentRecordOutput = (f: RecordField) => (f.type.kind === "array" && !f.optional ? [] : undefined);

/** A field missing from a record, as outputs show it: its default, else its empty value (tags: none; an object: null). */
function absentOutput(field: Field): unknown {
  if (field.default !== undefined) return field.default;
  return field.type.kind === "tags" ? {} : field.type.kind === "object" ? null : absentValue(field);
}

/**
 * What the program gave of a field: a member list per member (by the id the service gave it,
 * as `state` holds it), an object whose fields the service fills by its keys, else all.
 */
function givenShapeOf(name: string, field: Field, given: unknown, state: unknown, manageOnlyGiven: boolean): GivenShape {
  const t = field.type;
  if (t.kind === "array" && t.unique === "member" && t.items.kind === "object") {
    const key = (m: Inputs) => {
      const c = canonicalValue(m, t.items);
      return isRecord(c) ? memberKey(c.address, c.protocolPort) : "";
    };
    const byKey = new Map(recordsIn(state).map((m) => [key(m), m]));
    const members: Record<string, string[]> = {};
    for (const m of recordsIn(given)) {
      const id = byKey.get(key(m))?.id;
      if (typeof id === "string") members[id] = definedKeys(m);
    }
    const skip = SERVICE_SET[name] ?? [];
    return { members, other: Object.keys(t.items.fields).filter((k) => !skip.includes(k)) };
  }
  if (t.kind === "object" && manageOnlyGiven && isRecord(given)) return definedKeys(given);
  return true;
}

/** A value as the service has it, in the shape the program gave it. */
function asGiven(value: unknown, shape: unknown): unknown {
  if (Array.isArray(shape)) return pick(value, stringsIn(shape));
  if (!isRecord(shape) || !Array.isArray(value)) return value;
  const members = isRecord(shape.members) ? shape.members : {};
  const other = stringsIn(shape.other);
  return value.map((m) => {
    const keys = isRecord(m) && typeof m.id === "string" && Array.isArray(members[m.id]) ? stringsIn(members[m.id]) : other;
    // Of a member the program did not give, what it could give (no service nulls).
    const picked = pick(m, keys);
    return keys === other && isRecord(picked) ? Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== null)) : picked;
  });
}

/**
 * The inputs a refresh records: what the program gave (the state's GIVEN), as the service now
 * has it. Pulumi shows `preview --diff` of the dynamic face as old inputs vs new inputs
 * (dynamic providers cannot send a detailed diff), so a drifted field is highlighted, and an
 * argument the refresh left out, or a member's field the service fills, would show as an
 * addition or removal that is not there. A state written before GIVEN records the managed
 * fields; those left to the service when omitted only with `includeAuto` (the state holds
 * them only when the user gave them) or when it listed them as given.
 */
export function refreshedInputs(state: Inputs, rules: FieldRule[], includeAuto = false): Inputs {
  const inputs: Inputs = {};
  const given = state[GIVEN];
  if (isRecord(given)) {
    for (const [name, shape] of Object.entries(given)) if (state[name] !== undefined) inputs[name] = asGiven(state[name], shape);
    return inputs;
  }
  const managed = stringsIn(state[LEGACY_MANAGED_OPTIONAL]);
  for (const rule of rules) {
    if (rule.autoWhenOmitted && !includeAuto && !managed.includes(rule.name)) continue;
    if (state[rule.name] !== undefined) inputs[rule.name] = state[rule.name];
  }
  return inputs;
}
