// BaremetalImage: POST bmimages from a volume (asynchronous; the id comes from the task),
// PATCH images/{id} for what can change in place, DELETE (asynchronous), GET for refresh.
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { apiPath } from "../client/path";
import { changedFields, diffResult, type FieldRule } from "./diff";
import { createViaTask, deleteViaTask, outputKeys, plain, readOrGone, patchBody, patchOrRead, scopeFailures, withContext, withoutProvider } from "./ops";
import { type Inputs, nonBlank, oneOf, scope, tags, timeouts, type Timeouts, userInputs, uuid4, validate } from "./schema";
import { baremetalImageShim } from "./shim";

export interface BaremetalImageArgs {
  /** Image name, not empty. Updates in place. */
  readonly name: pulumi.Input<string>;
  /** Volume to make the image from (uuid4). Changing it replaces the image. */
  readonly volumeId: pulumi.Input<string>;
  /** `aarch64` or `x86_64` (default). Replaces. */
  readonly architecture?: pulumi.Input<"aarch64" | "x86_64">;
  /** `bios`, `uefi`, or null (default: none). Updates in place. */
  readonly hwFirmwareType?: pulumi.Input<"bios" | "uefi" | null>;
  /** `pc`, `q35`, or null (default: none). Updates in place. */
  readonly hwMachineType?: pulumi.Input<"pc" | "q35" | null>;
  /** Whether bare metal servers will use the image. Default false. Updates in place. */
  readonly isBaremetal?: pulumi.Input<boolean>;
  /** `linux` (default) or `windows`. Updates in place. */
  readonly osType?: pulumi.Input<"linux" | "windows">;
  /** Only `volume` (default). Replaces. */
  readonly source?: pulumi.Input<"volume">;
  /** `allow` (default), `deny` or `required`: SSH key support. Updates in place. */
  readonly sshKey?: pulumi.Input<"allow" | "deny" | "required">;
  /** Key-value tags, keys and values up to 255 characters. Default {}. Updates in place. */
  readonly tags?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Project; default `cims:projectId`. Replaces. */
  readonly projectId?: pulumi.Input<number>;
  /** Region; default `cims:regionId`. Replaces. */
  readonly regionId?: pulumi.Input<number>;
  /** Deadlines for waiting on this image's tasks. */
  readonly timeouts?: pulumi.Input<Timeouts>;
}

const schema = z.strictObject({
  name: nonBlank,
  volumeId: uuid4,
  architecture: oneOf(["aarch64", "x86_64"]).optional(),
  hwFirmwareType: oneOf(["bios", "uefi"]).nullable().optional(),
  hwMachineType: oneOf(["pc", "q35"]).nullable().optional(),
  isBaremetal: z.boolean("must be true or false").optional(),
  osType: oneOf(["linux", "windows"]).optional(),
  source: oneOf(["volume"]).optional(),
  sshKey: oneOf(["allow", "deny", "required"]).optional(),
  tags: tags.optional(),
  projectId: scope.projectId.optional(),
  regionId: scope.regionId.optional(),
  timeouts: timeouts.optional(),
});

const FIELDS: FieldRule[] = [
  { name: "name" },
  { name: "volumeId", replaces: true },
  { name: "architecture", replaces: true },
  { name: "hwFirmwareType" },
  { name: "hwMachineType" },
  { name: "isBaremetal" },
  { name: "osType" },
  { name: "source", replaces: true },
  { name: "sshKey" },
  { name: "tags" },
  { name: "projectId", replaces: true },
  { name: "regionId", replaces: true },
  { name: "timeouts" },
];

/** camelCase -> wire name, for every field; `patchable` ones go to PATCH images/{id}. */
const WIRE: Record<string, { wire: string; patchable: boolean }> = {
  name: { wire: "name", patchable: true },
  volumeId: { wire: "volume_id", patchable: false },
  architecture: { wire: "architecture", patchable: false },
  hwFirmwareType: { wire: "hw_firmware_type", patchable: true },
  hwMachineType: { wire: "hw_machine_type", patchable: true },
  isBaremetal: { wire: "is_baremetal", patchable: true },
  osType: { wire: "os_type", patchable: true },
  source: { wire: "source", patchable: false },
  sshKey: { wire: "ssh_key", patchable: true },
  tags: { wire: "tags", patchable: true },
};

async function check(_olds: Inputs, news: Inputs): Promise<pulumi.dynamic.CheckResult> {
  const given = userInputs(news);
  const scoped = scopeFailures(given);
  const failures = [...validate(schema, scoped.inputs), ...scoped.failures];
  const inputs = {
    ...news,
    ...scoped.inputs,
    architecture: given.architecture ?? "x86_64",
    hwFirmwareType: given.hwFirmwareType ?? null,
    hwMachineType: given.hwMachineType ?? null,
    isBaremetal: given.isBaremetal ?? false,
    osType: given.osType ?? "linux",
    source: given.source ?? "volume",
    sshKey: given.sshKey ?? "allow",
    tags: given.tags ?? {},
  };
  return { inputs: plain(inputs) as Inputs, failures };
}

async function diff(_id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.DiffResult> {
  return diffResult(changedFields(olds, news, FIELDS));
}

export function toCreateBody(i: Inputs): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, { wire }] of Object.entries(WIRE)) if (i[field] !== undefined) body[wire] = i[field];
  return body;
}

export function fromRecord(r: Record<string, unknown>): Inputs {
  const out: Inputs = {};
  for (const [field, { wire }] of Object.entries(WIRE)) out[field] = r[wire];
  return plain({ ...out, tags: r.tags ?? {}, status: r.status, createdAt: r.created_at, projectId: r.project_id, regionId: r.region_id }) as Inputs;
}

const scopePath = (i: Inputs) => ({ project_id: i.projectId as number, region_id: i.regionId as number });
const createPath = (i: Inputs) => apiPath("/cloud/v1/bmimages/{project_id}/{region_id}", scopePath(i));
const one = (i: Inputs, id: string) => apiPath("/cloud/v1/images/{project_id}/{region_id}/{id}", { ...scopePath(i), id });

function outputs(record: Record<string, unknown>, inputs: Inputs, taskIds: string[]): Inputs {
  return { ...withoutProvider(inputs), ...fromRecord(record), taskIds };
}

async function create(inputs: Inputs): Promise<pulumi.dynamic.CreateResult> {
  const call = { path: createPath(inputs), body: toCreateBody(inputs), kind: "images", recordPath: (id: string) => one(inputs, id) };
  return createViaTask(`BaremetalImage "${String(inputs.name)}"`, inputs, call, (record, taskIds) => outputs(record, inputs, taskIds));
}

async function update(id: string, olds: Inputs, news: Inputs): Promise<pulumi.dynamic.UpdateResult> {
  const what = `BaremetalImage "${String(news.name)}" (${id})`;
  return withContext(what, async () => {
    const body = patchBody(olds, news, FIELDS, (field) => (WIRE[field]?.patchable ? WIRE[field].wire : undefined));
    return { outs: outputs(await patchOrRead(one(news, id), body), news, []) };
  });
}

async function remove(id: string, props: Inputs): Promise<void> {
  await deleteViaTask(`BaremetalImage "${String(props.name)}" (${id})`, one(props, id), props);
}

async function read(id: string, props: Inputs): Promise<pulumi.dynamic.ReadResult> {
  return readOrGone(id, props, one(props, id), fromRecord, FIELDS);
}

export const baremetalImageMethods = { check, diff, create, update, read, delete: remove };

const OUTPUTS = [
  "name", "volumeId", "architecture", "hwFirmwareType", "hwMachineType", "isBaremetal", "osType", "source", "sshKey",
  "tags", "status", "createdAt", "projectId", "regionId", "taskIds",
];

/**
 * A bare metal-capable image made from a volume. Created asynchronously: `pulumi up` waits
 * for the service's task and reads the new id from it. Destroy deletes the image.
 */
export class BaremetalImage extends pulumi.dynamic.Resource {
  public readonly name!: pulumi.Output<string>;
  public readonly volumeId!: pulumi.Output<string>;
  public readonly architecture!: pulumi.Output<"aarch64" | "x86_64">;
  public readonly hwFirmwareType!: pulumi.Output<"bios" | "uefi" | null>;
  public readonly hwMachineType!: pulumi.Output<"pc" | "q35" | null>;
  public readonly isBaremetal!: pulumi.Output<boolean>;
  public readonly osType!: pulumi.Output<"linux" | "windows">;
  public readonly source!: pulumi.Output<"volume">;
  public readonly sshKey!: pulumi.Output<"allow" | "deny" | "required">;
  public readonly tags!: pulumi.Output<Record<string, string>>;
  /** The service's image status (e.g. `active`). */
  public readonly status!: pulumi.Output<string>;
  public readonly createdAt!: pulumi.Output<string>;
  public readonly projectId!: pulumi.Output<number>;
  public readonly regionId!: pulumi.Output<number>;
  /** Tasks of the last operation ([] for in-place updates). */
  public readonly taskIds!: pulumi.Output<string[]>;

  constructor(name: string, args: BaremetalImageArgs, opts?: pulumi.CustomResourceOptions) {
    super(baremetalImageShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "BaremetalImage");
  }
}
