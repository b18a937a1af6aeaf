// The provider's own inputs and outputs, beyond the contract's fields: their words, their
// schema type (the plugin's schema.json) and their TypeScript type (the generated Args and
// State). A kind's descriptor says which of the inputs it takes (`extra`).

export interface ProviderProperty {
  /** The TypeScript type a program gives or reads. */
  readonly ts: string;
  /** The Pulumi package schema's type. */
  readonly schema: Readonly<Record<string, unknown>>;
  readonly doc: string;
}

export const PROVIDER_INPUTS: Readonly<Record<string, ProviderProperty>> = {
  projectId: {
    ts: "number",
    schema: { type: "integer" },
    doc: "Project; default `cims:projectId` (else CIMS_PROJECT_ID). Changing it replaces the resource.",
  },
  regionId: {
    ts: "number",
    schema: { type: "integer" },
    doc: "Region; default `cims:regionId` (else CIMS_REGION_ID). Changing it replaces the resource.",
  },
  timeouts: {
    ts: "Timeouts",
    schema: { $ref: "#/types/cims:index:Timeouts" },
    doc:
      "Deadlines, in seconds, for waiting on this resource's tasks; each overrides `cims:taskTimeoutSeconds` for its operation. " +
      "On the plugin face (`cims.native`, YAML) Pulumi's `customTimeouts` option counts too, and given both the smaller wins; " +
      "the dynamic face never receives `customTimeouts`.",
  },
  importId: {
    ts: "string",
    schema: { type: "string" },
    doc:
      "Adopt the existing record with this id (uuid4) instead of creating one: `up` reads it, refuses if a field that cannot " +
      "change in place differs (preview already says so), and updates only the in-place fields that differ. It never causes a " +
      "diff: once adopted, the resource is managed like any other (destroy deletes it; `retainOnDelete: true` keeps it).",
  },
  poolId: { ts: "string", schema: { type: "string" }, doc: "The load balancer pool (uuid4). Changing it replaces the resource." },
  membersOwnership: {
    ts: '"declared" | "exclusive"',
    // A property takes no `enum` in a Pulumi package schema (only a type does; the engine drops it).
    schema: { type: "string" },
    doc:
      'Which of the pool\'s members the stack manages. "declared" (the default): only those `members` lists, each added, ' +
      "changed and removed one by one by its id; members others added (another stack's LbPoolSettings or LbPoolMember) are never " +
      'touched: for a pool several teams share. "exclusive": the pool holds exactly `members`, and a change of them removes every ' +
      "other member (the preview names each): for a pool one stack owns whole.",
  },
  policyId: { ts: "number", schema: { type: "integer" }, doc: "The snapshot lifecycle policy's id. Changing it replaces the resource." },
  includeVolumes: {
    ts: "boolean",
    schema: { type: "boolean" },
    doc: "Also read the policy's volumes (the `volumes` output). Default false.",
  },
  clientId: {
    ts: "number",
    schema: { type: "integer" },
    doc: "The client whose quota notification threshold this is. Changing it replaces the resource.",
  },
};

/** Outputs the provider derives rather than reads from one record field. */
export const PROVIDER_OUTPUTS: Readonly<Record<string, ProviderProperty>> = {
  readOnlyTags: {
    ts: "Record<string, string>",
    schema: { type: "object", additionalProperties: { type: "string" } },
    doc: "The service's own read-only tags: never diffed or changed, and their keys cannot be used in `tags`.",
  },
  taskIds: {
    ts: "string[]",
    schema: { type: "array", items: { type: "string" } },
    doc: "Tasks of the last operation ([] for synchronous calls and in-place updates).",
  },
};
