// SnapshotPolicyState: manages the name and status (active/paused) of an existing volume
// snapshot lifecycle policy with PATCH lifecycle_policy (synchronous). Destroy leaves the
// policy as it is: the stack stops managing it.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { apiPath } from "../client/path";
import { changedFields, diffResult, type FieldRule } from "./diff";
import { camelKeys, outputKeys, plain, scopeFailures, readOrGone, withContext, withoutProvider } from "./ops";
import { apiClient, log } from "./runtime";
import { type Inputs, nonBlank, oneOf, scope, userInputs, validate } from "./schema";
import { snapshotPolicyStateShim } from "./shim";

export interface SnapshotPolicyStateArgs {
  /** The policy's integer id. Changing it replaces (manages another policy). */
  readonly policyId: pulumi.Input<number>;
  /** New policy name, not empty. Omitted: left as it is. Updates in place. */
  readonly name?: pulumi.Input<string>;
  /** `active` or `paused`. Omitted: left as it is. Updates in place. */
  readonly status?: pulumi.Input<"active" | "paused">;
  /** Also read the policy's volumes (`volumes` output). Default false. */
  readonly includeVolumes?: pulumi.Input<boolean>;
  /** Project; default `cims:projectId`. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId`. Replaces. */
  readonly regionId?: pulumi.Input<number>;
}

export interface RetentionTime {
  days?: number;
  hours?: number;
  minutes?: number;
  weeks?: number;
}

/** A cron or interval schedule of the policy, camelCased from the API. */
export interface PolicySchedule {
  id?: string;
  type?: string;
  maxQuantity?: number;
  owner?: string;
  ownerId?: number;
  userId?: number;
  retentionTime?: RetentionTime;
  day?: string;
  dayOfWeek?: string;
  hour?: string;
  minute?: string;
  month?: string;
  week?: string;
  timezone?: string;
  resourceNameTemplate?: string;
  [field: string]: unknown;
}

const schema = z.strictObject({
  policyId: z.number("must be an integer").int("must be an integer").positive("must be a positive integer"),
  name: nonBlank.optional(),
  status: oneOf(["active", "paused"]).optional(),
  includeVolumes: z.boolean("must be true or false").optional(),
  projectId: scope.projectId.optional(),
  regionId: scope.regionId.optional(),
});

const FIELDS: FieldRule[] = [
  { name: "policyId", replaces: true },
  { name: "name", autoWhenOmitted: true },
  { name: "status", autoWhenOmitted: true },
  { name: "includeVolumes" },
  { name: "projectId", replaces: true },
  { name: "regionId", replaces: true },
];

export function fromRecord(r: Record<string, unknown>, includeVolumes: boolean): Inputs {
  return plain({
    policyId: r.id,
    name: r.name,
    status: r.status,
    action: r.action,
    userId: r.user_id,
    schedules: camelKeys(r.schedules ?? []),
    volumes: includeVolumes ? camelKeys(r.volumes ?? []) : undefined,
    projectId: r.project_id,
    regionId: r.region_id,
  }) as Inputs;
}

async function check(_olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const scoped = scopeFailures(userInputs(news));
  const failures = [...validate(schema, scoped.inputs), ...scoped.failures];
  return { inputs: plain({ ...news, ...scoped.inputs, includeVolumes: news.includeVolumes ?? false }) as Inputs, failures };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  return diffResult(changedFields(olds, news, FIELDS));
}

const path = (i: Inputs) =>
  apiPath("/cloud/v1/lifecycle_policy/{project_id}/{region_id}/{policy_id}", {
    project_id: i.projectId as number,
    region_id: i.regionId as number,
    policy_id: i.policyId as number,
  });
const query = (i: Inputs) => (i.includeVolumes ? { need_volumes: true } : {});

/** PATCH with the managed fields (or GET when there is nothing to change). */
async function apply(inputs: Inputs, fields: string[]): Promise<Inputs> {
  const body: Record<string, unknown> = {};
  for (const f of fields) if (inputs[f] !== undefined) body[f] = inputs[f];
  const record = await apiClient().request<Record<string, unknown>>(Object.keys(body).length ? "PATCH" : "GET", path(inputs), {
    query: query(inputs),
    body: Object.keys(body).length ? body : undefined,
  });
  return { ...withoutProvider(inputs), ...fromRecord(record, inputs.includeVolumes === true), taskIds: [] };
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  const what = `SnapshotPolicyState of policy ${String(inputs.policyId)}`;
  return withContext(what, async () => ({ id: String(inputs.policyId), outs: await apply(inputs, ["name", "status"]) }));
}

async function update(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  const what = `SnapshotPolicyState of policy ${String(news.policyId)}`;
  const changed = changedFields(olds, news, FIELDS).map((r) => r.name).filter((n) => n === "name" || n === "status");
  return withContext(what, async () => ({ outs: await apply(news, changed) }));
}

async function remove(_id: string, props: Inputs): Promise<void> {
  log(`SnapshotPolicyState of policy ${String(props.policyId)}: left as it is (the stack no longer manages it)`);
}

async function read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, path(props), (record) => fromRecord(record, props.includeVolumes === true), FIELDS, { includeAuto: true, query: query(props) });
}

export const snapshotPolicyStateMethods = { check, diff, create, update, read, delete: remove };

const OUTPUTS = ["policyId", "name", "status", "action", "userId", "schedules", "volumes", "includeVolumes", "projectId", "regionId", "taskIds"];

/**
 * The name and status of an existing snapshot lifecycle policy (e.g. pause it in dev).
 * Synchronous; destroy leaves the policy as it is.
 */
export class SnapshotPolicyState extends pulumi.dynamic.Resource {
  public readonly policyId!: pulumi.Output<number>;
  public readonly name!: pulumi.Output<string>;
  public readonly status!: pulumi.Output<"active" | "paused">;
  public readonly action!: pulumi.Output<string>;
  public readonly userId!: pulumi.Output<number>;
  public readonly schedules!: pulumi.Output<PolicySchedule[]>;
  /** `{volumeId, volumeName}` of each volume; only with `includeVolumes: true`. */
  public readonly volumes!: pulumi.Output<Array<{ volumeId: string; volumeName: string }> | undefined>;
  public readonly includeVolumes!: pulumi.Output<boolean>;
  public readonly projectId!: pulumi.Output<number>;
  public readonly regionId!: pulumi.Output<number>;
  /** Always [] (the call is synchronous). */
  public readonly taskIds!: pulumi.Output<string[]>;

  constructor(name: string, args: SnapshotPolicyStateArgs, opts?: pulumi.CustomResourceOptions) {
    super(snapshotPolicyStateShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "SnapshotPolicyState");
  }
}
