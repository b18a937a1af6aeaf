// The provider's own inputs and the outputs it derives, in the contract's vocabulary
// (api/contract/types.ts): each input is a field like any other, with its type (and so its
// rules: api/schema.ts checks it), its words, whether it is required and who sets it
// (`create`: a change replaces the resource). A kind's descriptor says which it takes (`own`);
// its shape (shape.ts) puts them beside the contract's fields for every renderer.
import { arrayOf, boolean, positiveId, tags, text, uuid4 } from "../../api/contract/common";
import type { Field, NumberType, ObjectType, RecordField } from "../../api/contract";

/** An input of the provider's own: a contract field, and how it steers what the provider does. */
export interface OwnField extends Field {
  /** Never a diff: it matters only when creating (importId). */
  readonly neverDiff?: true;
  /** It steers operations and is not state (importId, timeouts): never an output. */
  readonly notState?: true;
  /** The resource's scope, the same for every kind (projectId, regionId). */
  readonly scope?: true;
}

const seconds = { kind: "number", unit: "seconds" } as const satisfies NumberType;

export const Timeouts = {
  kind: "object",
  name: "Timeouts",
  doc: "Per-operation deadlines in seconds; each overrides `cims:taskTimeoutSeconds`. The `customTimeouts` resource option bounds the same waits; given both, the smaller wins.",
  fields: {
    create: { type: seconds, set: "update", doc: "Seconds to wait for a create's tasks." },
    update: { type: seconds, set: "update", doc: "Seconds to wait for an update's tasks." },
    delete: { type: seconds, set: "update", doc: "Seconds to wait for a delete's tasks." },
  },
} as const satisfies ObjectType;

export const OWN = {
  projectId: {
    type: positiveId,
    set: "create",
    scope: true,
    doc: "Project; default `cims:projectId` (else CIMS_PROJECT_ID).",
  },
  regionId: {
    type: positiveId,
    set: "create",
    scope: true,
    doc: "Region; default `cims:regionId` (else CIMS_REGION_ID).",
  },
  timeouts: {
    type: Timeouts,
    set: "update",
    notState: true,
    doc:
      "Deadlines, in seconds, for waiting on this resource's tasks; each overrides `cims:taskTimeoutSeconds` for its operation. " +
      "On the plugin face (`cims.native`, YAML) Pulumi's `customTimeouts` option counts too, and given both the smaller wins; " +
      "the dynamic face never receives `customTimeouts`.",
  },
  importId: {
    type: uuid4,
    set: "update",
    neverDiff: true,
    notState: true,
    doc:
      "Adopt the existing record with this id (uuid4) instead of creating one: `up` reads it, refuses if a field that cannot " +
      "change in place differs (preview already says so), and updates only the in-place fields that differ. It never causes a " +
      "diff: once adopted, the resource is managed like any other, but for its end: destroy, a replacement or removing it from the " +
      "program leaves the adopted record in the service (the `adopted` output says so) unless `deleteAdopted: true`.",
  },
  deleteAdopted: {
    type: boolean,
    set: "update",
    default: false,
    doc:
      "Whether destroy, a replacement or removing the resource from the program deletes its record when the resource adopted it " +
      "(`importId`, `pulumi import`, cims-import: the `adopted` output) rather than created it. Left false, an adopted record stays " +
      "in the service and a line names it; a record the resource created is deleted either way. A change never replaces and writes " +
      "nothing to the service, only the state: set it and run `pulumi up`, then `pulumi destroy` deletes the record.",
  },
} as const satisfies Readonly<Record<string, OwnField>>;

/** Outputs the provider derives rather than reads from one record field. */
export const DERIVED = {
  readOnlyTags: {
    type: tags,
    doc: "The service's own read-only tags: never diffed or changed, and their keys cannot be used in `tags`.",
  },
  adopted: {
    type: boolean,
    optional: true,
    doc:
      "true when the resource took over a record that existed (`importId`, `pulumi import`, cims-import) rather than creating it: " +
      "destroy and a replacement then leave the record in the service unless `deleteAdopted: true`. A state written before this " +
      "output counts as adopted when it holds an `importId`.",
  },
  taskIds: { type: arrayOf(text), doc: "Tasks of the last operation ([] for synchronous calls and in-place updates)." },
} as const satisfies Readonly<Record<string, RecordField>>;
