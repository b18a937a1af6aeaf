// The vocabulary of the field tables: what a value may be (type, format, enum, range,
// nullable), whether it is required, and who may set it. Pure data, so that a user's
// program can read field names without loading any parser; the rules behind the names are
// in ../formats.ts and ../rules.ts. ../schema.ts reads a table as a zod schema, for the
// provider's check() (camelCase) and the emulator's request checks (snake_case): a rule
// exists once, and is read once.

/** Named value formats; each is checked by ../formats.ts. */
export type Format = "uuid4" | "ip" | "cidr" | "urlPath" | "expectedCodes" | "dateTime";

/** Named rules across the fields of one object; each is in ../rules.ts. */
export type RuleName = "subnet" | "route" | "memberTarget" | "schedule";

export interface StringType {
  readonly kind: "string";
  readonly format?: Format;
  readonly enum?: readonly string[];
  /**
   * An enum's name in the SDKs: schema.json's enum type `cims:index:<name>` (Go's `cims.<name>`,
   * Python's `cims.<name>`, Java's `com.pulumi.cims.enums.<name>`). The vendor SDK's name where it has one.
   */
  readonly name?: string;
  readonly nonBlank?: boolean;
  /**
   * Other spellings of enum values, accepted wherever the value is, and the same value:
   * `{ i440: "pc" }` (the vendor's SDK spells the spec's `pc` machine type `i440`).
   */
  readonly aliases?: Readonly<Record<string, string>>;
  /** How the service's records (and its reference calls beyond the spec) spell enum values: `{ pc: "i440" }`. */
  readonly recordSpelling?: Readonly<Record<string, string>>;
}

export interface IntegerType {
  readonly kind: "integer";
  readonly min: number | bigint;
  readonly max: number | bigint;
  /** Said in the message: "an integer from 0 to 86400000 milliseconds". */
  readonly unit?: string;
  /** Values beyond 2^53: the wire carries exact integers, Pulumi decimal strings. */
  readonly int64?: true;
  readonly enum?: readonly number[];
  /** An enum's name in the SDKs, as StringType's (schema.json's enum type of numbers). */
  readonly name?: string;
}

/** A positive number, fractions allowed (seconds a wait may take). */
export interface NumberType {
  readonly kind: "number";
  /** Said in the message: "must be a positive number of seconds". */
  readonly unit?: string;
}

export interface BooleanType {
  readonly kind: "boolean";
}

/** Key-value tags, each key and value at most 255 characters; a merge patch on update. */
export interface TagsType {
  readonly kind: "tags";
}

export interface ArrayType {
  readonly kind: "array";
  readonly items: FieldType;
  /** Items that must not repeat: by canonical IP address, or by member address + port. */
  readonly unique?: "ip" | "member";
  /** The order means nothing (the service returns the items in its own order). */
  readonly unordered?: true;
}

export interface ObjectType {
  readonly kind: "object";
  /** The type's public name (a program's TypeScript type, the schema's `cims:index:<name>`). */
  readonly name: string;
  /** One sentence: what the object is. */
  readonly doc: string;
  readonly fields: FieldTable;
  /** Further members by name (quota entries): wire names allowed, and their type. */
  readonly members?: { readonly names: readonly string[]; readonly type: FieldType; readonly what: string };
  readonly rules?: readonly RuleName[];
  /** The service may add fields of its own (a policy's schedules): kept as they come. */
  readonly open?: true;
}

export type FieldType = StringType | IntegerType | NumberType | BooleanType | TagsType | ArrayType | ObjectType;

/**
 * Who may set a field: `create` on creation only (a change replaces the resource),
 * `update` on creation and in place, `read` never (the service's own, refused in a PATCH).
 */
export type Setter = "create" | "update" | "read";

export interface Field {
  readonly type: FieldType;
  /** What the field is and means, in a sentence or two: the words of every doc and schema. */
  readonly doc: string;
  readonly required?: true;
  readonly nullable?: true;
  /**
   * A word a program may give in place of null, meaning the same (a subnet's `gatewayIp:
   * "disable"`, the vendor's spelling). YAML, Python, Go and Java programs cannot give null:
   * their SDKs drop a null or None input before the provider sees it, so there null would be
   * the same as omitted. Only with `nullable`.
   */
  readonly nullWord?: string;
  readonly set: Setter;
  /** The service's default when omitted (spec); the provider writes it into the state. */
  readonly default?: unknown;
  /** Omitted means the service chooses (a gateway it allocates, DNS servers it advertises). */
  readonly serviceDefault?: true;
  /** The service's records do not carry it (a create-only instruction, such as which router to connect). */
  readonly notInRecord?: true;
  /**
   * Every record carries it, never null (the vendor SDK's model, and the spec's response schema
   * where it has one, require it): schema.json marks the output required.
   */
  readonly inEveryRecord?: true;
  /** The service's records carry it under another name than requests do (an image's tags: `tags_v2`). */
  readonly recordName?: string;
  /**
   * null removes it, by a call of its own rather than a null in the update body (a pool's
   * health monitor: DELETE .../healthmonitor). The update body itself refuses null.
   */
  readonly removedByDelete?: true;
  /**
   * Changed in place item by item through calls of its own, never in the update's body (a
   * policy's schedules: `add` and `remove` name the calls, an operation of `more` or another kind's).
   */
  readonly changedBy?: { readonly add: string; readonly remove: string };
}

/** Fields by their camelCase name; the wire name is toSnake(name). */
export type FieldTable = Readonly<Record<string, Field>>;

/**
 * A field only the service writes, by its wire name. `output` names it among a resource's
 * outputs (its camelCase name); a record field without it is read by the provider but not shown.
 */
export interface RecordField {
  readonly type: FieldType;
  readonly doc: string;
  readonly output?: true;
  /** Not in every record (a policy's volumes, read only when asked for). */
  readonly optional?: true;
  /**
   * Every record carries it, never null (the vendor SDK's model, and the spec's response schema
   * where it has one, require it): schema.json marks the output required.
   */
  readonly inEveryRecord?: true;
}

/** The service's own fields in the records it returns, by wire (snake_case) name. */
export type RecordTable = Readonly<Record<string, RecordField>>;

/** A resource's writable body: its fields and the rules across them. */
export interface BodyContract {
  readonly fields: FieldTable;
  readonly rules?: readonly RuleName[];
  /**
   * `unmanaged`: settings of an object that exists anyway (a pool, a policy): a field the
   * program leaves out is left as the service has it, never a change. Otherwise each optional
   * field says what omitting it means: `default` or `serviceDefault`.
   */
  readonly omitted?: "unmanaged";
}

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * One call of the API on a kind's records, as the service answers it. Everything the provider,
 * the emulator and the tests know of a call is here: which path, whether the service answers
 * with a task (and of which type), which key of the task's `created_resources` names the new
 * record, and the vendor SDK's types for the body sent and the record answered.
 */
export interface Operation {
  readonly method: Method;
  /** The name of its path template in the contract's `paths`. */
  readonly path: string;
  /** The `task_type` of the task the service answers with; none: the answer is the record itself. */
  readonly task?: string;
  /**
   * A task that makes records: the key of its `created_resources` that lists their ids (a
   * create's new record; the members a pool's update adds).
   */
  readonly created?: string;
  /** The vendor SDK's type of the body (its Python path): the conformance check validates every body sent against it. */
  readonly request?: string;
  /** The vendor SDK's model of the record answered (its Python path): the conformance probe validates answers with it. */
  readonly response?: string;
  /**
   * How its body spells enum values: `record`, as the service's records do (a reference call
   * beyond the spec, such as a PATCH); otherwise as the spec's requests do.
   */
  readonly spelling?: "record";
}

/**
 * A kind's calls. `get` reads one record; its path's last parameter is the record's id and the
 * parameters before it are the record's scope. `more` holds the service's other spellings of a
 * call (the vendor SDK's) and the calls of a record's parts (a pool's health monitor).
 */
export interface Operations {
  readonly get: Operation;
  readonly list?: Operation;
  readonly create?: Operation;
  readonly update?: Operation;
  readonly delete?: Operation;
  readonly more?: Readonly<Record<string, Operation>>;
}

/** A resource type of the vendor's Terraform provider that is this kind, and its generation. */
export interface TerraformName {
  readonly type: string;
  readonly generation: 1 | 2;
}

/**
 * What every contract says of a record's calls, a kind's or a read-only record's: its name, its
 * words, its paths and the calls on them, and the vendor SDK's fields it leaves out. The record's
 * id and scope follow from `get`'s path (./operations.ts), the same way for both.
 */
export interface CallContract {
  /** The resource's name, as programs and the schema spell it. */
  readonly name: string;
  /** What one resource is, in a sentence or two. */
  readonly doc: string;
  /** Request paths, as templates with {snake_case} parameters, by name. */
  readonly paths: Readonly<Record<string, string>>;
  readonly operations: Operations;
  /**
   * The vendor SDK's model of one record where the record is a part of what `get` answers (a
   * policy's volume: an entry of the policy's `volumes`); otherwise `get`'s response is the record's.
   */
  readonly recordModel?: string;
  /**
   * The vendor SDK's fields this contract's record neither takes nor shows, by wire name (a
   * request's inner field as `members.instance_id`), each with the reason: the conformance test
   * refuses any field of its request types and record model that is neither mapped nor here.
   */
  readonly vendorLeftOut?: Readonly<Record<string, string>>;
}

/** A resource of the API: its body, the service's own record fields, its words, paths and calls. */
export interface Contract extends BodyContract, CallContract {
  readonly record: RecordTable;
  /**
   * The inputs that name the record or the record it lives under, beside the scope: a path
   * parameter each, camelCased (`poolId` is `{pool_id}`). Set at creation; a change replaces.
   */
  readonly identity?: Readonly<Record<string, { readonly type: FieldType; readonly doc: string }>>;
  /** The vendor's Terraform resource types that are this kind (cims-import adopts them). */
  readonly terraform?: readonly TerraformName[];
}

/** A read of a record no stack writes: a GET, answered with no task, as the vendor SDK's model. */
export interface ReadOperation extends Operation {
  readonly method: "GET";
  /** The vendor SDK's model of the record answered (each of a list's `results`). */
  readonly response: string;
  readonly task?: never;
  readonly created?: never;
  readonly request?: never;
}

/**
 * A record the API serves and no stack writes (a project, a region, a network, a volume): what
 * resources refer to and the lookups find. Its calls are a list and a read by id, nothing else;
 * `vendorLeftOut` names the vendor model's fields no lookup answers or filters on.
 */
export interface ReadOnlyContract extends CallContract {
  readonly operations: { readonly list: ReadOperation; readonly get: ReadOperation };
}

// ---------------------------------------------------------------------------------------
// The TypeScript value a table describes, as Pulumi programs give it (camelCase keys).
// ---------------------------------------------------------------------------------------

/** A quota number as a program gives it: a safe integer or a decimal string. */
export type Int64Input = number | string;

export type ValueOf<T extends FieldType> = T extends { kind: "string"; enum: readonly (infer E)[]; aliases: infer A }
  ? E | keyof A
  : T extends { kind: "string"; enum: readonly (infer E)[] }
    ? E
    : T extends { kind: "string" }
      ? string
      : T extends { kind: "integer"; enum: readonly (infer E)[] }
        ? E
        : T extends { kind: "integer"; int64: true }
          ? Int64Input
          : T extends { kind: "integer" } | { kind: "number" }
            ? number
            : T extends { kind: "boolean" }
              ? boolean
              : T extends { kind: "tags" }
                ? Record<string, string>
                : T extends { kind: "array"; items: infer I extends FieldType }
                  ? ValueOf<I>[]
                  : T extends { kind: "object"; fields: infer F extends FieldTable; members: { type: infer M extends FieldType } }
                    ? ObjectOf<F> & { [member: string]: ValueOf<M> | ObjectOf<F>[keyof ObjectOf<F>] }
                    : T extends { kind: "object"; fields: infer F extends FieldTable }
                      ? ObjectOf<F>
                      : never;

/** null where the contract allows it, or where it removes the field (removedByDelete). */
export type FieldValue<F extends Field> = F extends { nullable: true } | { removedByDelete: true }
  ? ValueOf<F["type"]> | null
  : ValueOf<F["type"]>;

type RequiredKeys<T extends FieldTable> = { [K in keyof T]: T[K] extends { required: true } ? K : never }[keyof T];
type OptionalKeys<T extends FieldTable> = Exclude<keyof T, RequiredKeys<T>>;

type Flatten<T> = { [K in keyof T]: T[K] };

/** The object a table describes: required fields required, the others optional. */
export type ObjectOf<T extends FieldTable> = Flatten<
  { [K in RequiredKeys<T>]: FieldValue<T[K]> } & { [K in OptionalKeys<T>]?: FieldValue<T[K]> }
>;
