// Request-body rules: the contract's field tables (api/contract) read as snake_case request
// checks, answering field path -> messages ({} when valid). Every rule and its words come
// from api/, so the emulator refuses exactly what the provider refuses at preview. Unknown
// fields are errors, never ignored, so a client's camelCase leak (`networkId`) or typo
// surfaces here instead of being silently dropped.
//
// Bodies come from lossless-json: safe integers are numbers, larger ones bigints, so an
// integer is either; nothing is coerced ("true" is not a boolean, "80" not an integer).
import {
  GlobalQuotas,
  HealthMonitor,
  BaremetalImage,
  SnapshotPolicyState,
  LbPoolSettings,
  QuotaMessage,
  QuotaThreshold,
  RegionalQuotas,
  Subnet,
} from "../api/contract";
import type { BodyContract, Field, FieldType, ObjectType } from "../api/contract";
import {
  duplicateMessage,
  enumValues,
  formatProblem,
  fractionMessage,
  integerProblem,
  memberMessage,
  NON_BLANK,
  tagKeyProblem,
  tagValueProblem,
  typeMessage,
} from "../api/formats";
import { memberKey } from "../api/members";
import { canonicalIp, isIpAddress } from "../api/net";
import { toCamel, toSnake } from "../api/names";
import { RULES } from "../api/rules";
import { canonicalValue } from "../api/canonical";

export type InvalidFields = Record<string, string[]>;

// What the service's framework says; the rules' own words come from api/formats.ts.
const REQUIRED = "This field is required.";
const NOT_NULL = "This field may not be null.";
const UNKNOWN = "Unknown field.";
const FIXED = "This field cannot be updated.";

/** "must be an IP address" -> "Must be an IP address." (the service's sentence style) */
const sentence = (rule: string) => `${rule[0].toUpperCase()}${rule.slice(1)}${/[.!?]$/.test(rule) ? "" : "."}`;

/** Messages collected by field path. A Map, because paths come from client keys and a key
 * such as "constructor" or "__proto__" must not meet Object.prototype. */
class Report {
  private readonly byPath = new Map<string, string[]>();

  add(path: string, message: string): void {
    const messages = this.byPath.get(path);
    if (messages) messages.push(message);
    else this.byPath.set(path, [message]);
  }

  /** Object.fromEntries defines own properties, so even "__proto__" stays a plain key. */
  get fields(): InvalidFields {
    return Object.fromEntries(this.byPath);
  }
}

type JsonObject = Record<string, unknown>;

/** `create`: a whole new record (required fields enforced); `patch`: an update of some fields. */
type Mode = "create" | "patch";

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);
const item = (path: string, index: number) => `${path}[${index}]`;
const isInteger = (v: unknown): v is number | bigint => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));

function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkField(value: unknown, field: Field, path: string, report: Report, merge: boolean): void {
  if (value === null) {
    if (!field.nullable) report.add(path, NOT_NULL);
    return;
  }
  checkValue(value, field.type, path, report, merge);
}

function checkValue(value: unknown, type: FieldType, path: string, report: Report, merge: boolean): void {
  const fail = (rule: string) => report.add(path, sentence(rule));
  switch (type.kind) {
    case "string": {
      if (typeof value !== "string") return fail(typeMessage(type));
      if (type.nonBlank && value.trim() === "") return fail(NON_BLANK);
      if (type.enum && !enumValues(type).includes(value)) return fail(typeMessage(type));
      const problem = type.format && formatProblem(type.format, value);
      if (problem) fail(problem);
      return;
    }
    case "integer": {
      if (typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) return fail(fractionMessage(type));
      if (!isInteger(value)) return fail(typeMessage(type));
      const problem = integerProblem(type, value);
      if (problem) fail(problem);
      return;
    }
    case "boolean":
      if (typeof value !== "boolean") fail(typeMessage(type));
      return;
    case "tags":
      return checkTags(value, path, report, merge);
    case "array": {
      if (!Array.isArray(value)) return fail(typeMessage(type));
      value.forEach((entry, index) =>
        checkField(entry, { type: type.items, set: "update", doc: "An item." }, item(path, index), report, merge),
      );
      if (type.unique) noDuplicates(value, type.unique, path, report);
      return;
    }
    case "object":
      if (!isPlainObject(value)) return fail(typeMessage(type));
      return checkObject(value, type, path, report, "create", merge);
  }
}

/** Tags: string keys to string values; in a merge patch a null value removes the key. */
function checkTags(value: unknown, path: string, report: Report, merge: boolean): void {
  if (!isPlainObject(value)) return report.add(path, sentence(typeMessage({ kind: "tags" })));
  for (const [key, tagValue] of Object.entries(value)) {
    // Key problems go under `tags` itself: a bad key makes a poor path.
    const keyProblem = tagKeyProblem(key);
    if (keyProblem) report.add(path, sentence(keyProblem));
    else if (merge && tagValue === null) continue;
    else if (typeof tagValue !== "string")
      report.add(
        child(path, key),
        sentence(merge ? "tag values must be strings, or null to remove the tag" : "tag values must be strings"),
      );
    else if (tagValueProblem(tagValue)) report.add(child(path, key), sentence(tagValueProblem(tagValue)!));
  }
}

/** Reports each item equal (by canonical IP, or by member address + port) to an earlier one. */
function noDuplicates(items: unknown[], unique: "ip" | "member", path: string, report: Report): void {
  const seen = new Map<string, number>();
  items.forEach((entry, index) => {
    const key = uniqueKey(entry, unique);
    if (key === undefined) return;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, index);
    else report.add(item(path, index), sentence(duplicateMessage(item(path, earlier), unique)));
  });
}

function uniqueKey(entry: unknown, unique: "ip" | "member"): string | undefined {
  if (unique === "ip") return isIpAddress(entry) ? canonicalIp(entry as string) : undefined;
  if (!isPlainObject(entry) || !isIpAddress(entry.address) || !isInteger(entry.protocol_port)) return undefined;
  return memberKey(entry.address, entry.protocol_port);
}

/** Every present field against its rule; unknown and fixed fields refused; required ones present. */
function checkObject(
  value: JsonObject,
  type: Pick<ObjectType, "fields" | "members" | "rules">,
  path: string,
  report: Report,
  mode: Mode,
  merge: boolean,
  readOnly: readonly string[] = [],
): void {
  const byWire = new Map(Object.entries(type.fields).map(([camel, field]) => [toSnake(camel), field]));
  const members = type.members;
  for (const [key, fieldValue] of Object.entries(value)) {
    const field = byWire.get(key);
    if (field && !(mode === "patch" && field.set !== "update")) checkField(fieldValue, field, child(path, key), report, merge);
    else if (field || readOnly.includes(key)) report.add(child(path, key), FIXED);
    else if (members?.names.includes(key))
      checkField(fieldValue, { type: members.type, set: "update", doc: members.what }, child(path, key), report, merge);
    else report.add(child(path, key), members ? sentence(memberMessage(members.what, members.names[0])) : UNKNOWN);
  }
  if (mode === "create") {
    for (const [wire, field] of byWire) if (field.required && !Object.hasOwn(value, wire)) report.add(child(path, wire), REQUIRED);
  }
  // Rules across fields hold for whole records; a PATCH of some fields is checked per field.
  for (const rule of mode === "create" ? (type.rules ?? []) : []) {
    for (const issue of RULES[rule]((camel) => value[toSnake(camel)], toSnake))
      report.add(child(path, toSnake(issue.field)), sentence(issue.message));
  }
}

/** Runs a contract over a request body. */
export function validateBody(body: unknown, contract: BodyContract, mode: Mode, readOnly: readonly string[]): InvalidFields {
  if (!isPlainObject(body)) return { non_field_errors: ["Expected a JSON object."] };
  const report = new Report();
  checkObject(body, contract, "", report, mode, mode === "patch", readOnly);
  return report.fields;
}

const validator = (contract: BodyContract, mode: Mode, readOnly: readonly string[]) => (body: unknown) =>
  validateBody(body, contract, mode, readOnly);

export const validateSubnetCreate = validator(Subnet, "create", []);
export const validateSubnetPatch = validator(Subnet, "patch", Object.keys(Subnet.record));
export const validateImageCreate = validator(BaremetalImage, "create", []);
export const validateImagePatch = validator(BaremetalImage, "patch", Object.keys(BaremetalImage.record));
export const validatePoolPatch = validator(LbPoolSettings, "patch", Object.keys(LbPoolSettings.record));
/** POST .../healthmonitor (the vendor SDK's): a whole health monitor. */
export const validateHealthmonitorCreate = validator({ fields: HealthMonitor.fields }, "create", []);
export const validatePolicyPatch = validator(SnapshotPolicyState, "patch", Object.keys(SnapshotPolicyState.record));
/**
 * PUT is a whole setting (threshold required) whose fields all replace in place. `held`: the
 * client's setting as stored. The quota members it holds are members the service knows, also
 * those our contract does not (a seed of a service newer than the contract): a PUT may carry
 * them back.
 */
export function validateQuotaPut(body: unknown, held?: JsonObject): InvalidFields {
  const message = isPlainObject(held?.last_message) ? held.last_message : {};
  const globalHeld = isPlainObject(message.global_quotas) ? Object.keys(message.global_quotas) : [];
  const regionalHeld = (Array.isArray(message.regional_quotas) ? message.regional_quotas : []).flatMap((r: unknown) =>
    isPlainObject(r) ? Object.keys(r) : [],
  );
  const knowing = (t: typeof GlobalQuotas | typeof RegionalQuotas, held: string[]) => ({
    ...t,
    members: { ...t.members, names: [...t.members.names, ...held.filter((n) => !Object.hasOwn(t.fields, toCamel(n)))] },
  });
  const contract: BodyContract = {
    fields: {
      ...QuotaThreshold.fields,
      lastMessage: {
        ...QuotaThreshold.fields.lastMessage,
        type: {
          ...QuotaMessage,
          fields: {
            globalQuotas: { ...QuotaMessage.fields.globalQuotas, type: knowing(GlobalQuotas, globalHeld) },
            regionalQuotas: {
              ...QuotaMessage.fields.regionalQuotas,
              type: { kind: "array", items: knowing(RegionalQuotas, regionalHeld) },
            },
          },
        },
      },
    },
  };
  return validateBody(body, contract, "create", Object.keys(QuotaThreshold.record));
}

/**
 * A valid body in the spelling the service stores: canonical addresses, uuids and times;
 * unordered lists in one order; enum values as records spell them (`pc` is `i440`).
 */
export function canonicalBody(body: JsonObject, contract: BodyContract): JsonObject {
  const out: JsonObject = { ...body };
  for (const [camel, field] of Object.entries(contract.fields)) {
    const wire = toSnake(camel);
    if (out[wire] !== undefined) out[wire] = canonicalValue(out[wire], field.type, toSnake, "record");
  }
  return out;
}
