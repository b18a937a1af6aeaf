// A Terraform state (format version 4) written by the vendor's provider, either generation
// (v1: `gcore_subnet`, `gcore_lbpool`...; v2: `gcore_cloud_network_subnet`,
// `gcore_cloud_load_balancer_pool`...), as the records cims-import adopts: each resource's
// id, scope and kind, and every other resource of the state by address, with why it is
// not adopted. Pure: the state's text in, no network. The state gives identities only;
// what a program writes comes from the service's records (cli's --from-terraform reads them),
// so a field the state holds stale or leaves out is written as the service holds it.
import { messageOf } from "../../api/messages";
import { isRecord, recordsIn } from "../../api/guards";
import { memberKey } from "../../api/members";
import { type Kind, KIND_NAMES, kind } from "../kinds/registry";
import type { Scope } from "./generate";
import { hasUnsafe, visible } from "./quote";

/** A resource type of the vendor's provider that cims-import adopts, and as what. */
export interface TerraformType {
  kind: Kind;
  generation: 1 | 2;
  /** Why an instance of this type is not adopted after all (a v2 image that is no bare-metal one). */
  refuse?: (attributes: Record<string, unknown>) => string | undefined;
}

/** Why an instance of a type below is not adopted after all, by Terraform type. */
const REFUSALS: Readonly<Record<string, TerraformType["refuse"]>> = {
  gcore_cloud_instance_image: (a) =>
    a.is_baremetal === true
      ? undefined
      : "an image for virtual instances (is_baremetal is not true): pulumi-cims manages bare-metal images only",
};

/** The vendor's types that cims-import adopts (both generations), by Terraform type name: each kind's contract names its own. */
export const ADOPTED_TYPES: Readonly<Record<string, TerraformType>> = Object.fromEntries(
  KIND_NAMES.flatMap((k) =>
    (kind(k).descriptor.contract.terraform ?? []).map((t): [string, TerraformType] => {
      const refuse = REFUSALS[t.type];
      return [t.type, { kind: k, generation: t.generation, ...(refuse ? { refuse } : {}) }];
    }),
  ),
);

/** Why the vendor's types that have a neighbour in pulumi-cims are not adopted. */
export const NOT_ADOPTED: Record<string, string> = {
  gcore_gpu_baremetal_image: "a GPU cluster image (the GPU service's images), which no pulumi-cims kind manages",
  gcore_cloud_gpu_baremetal_cluster_image: "a GPU cluster image (the GPU service's images), which no pulumi-cims kind manages",
  gcore_network: "a network: pulumi-cims has no Network kind (a Subnet names its network by networkId)",
  gcore_cloud_network: "a network: pulumi-cims has no Network kind (a Subnet names its network by networkId)",
  gcore_loadbalancerv2: "a load balancer: pulumi-cims manages a pool's settings and members, not the load balancer",
  gcore_cloud_load_balancer: "a load balancer: pulumi-cims manages a pool's settings and members, not the load balancer",
  gcore_lblistener: "a listener: pulumi-cims manages a pool's settings and members, not its listeners",
  gcore_cloud_load_balancer_listener: "a listener: pulumi-cims manages a pool's settings and members, not its listeners",
  gcore_snapshot: "a volume snapshot: pulumi-cims manages lifecycle policies (SnapshotPolicy) that make snapshots, not snapshots",
};

/** One resource instance of the state that cims-import adopts. */
export interface AdoptedRecord {
  /** Its Terraform address (`module.net.gcore_subnet.app[0]`). */
  address: string;
  type: string;
  kind: Kind;
  generation: 1 | 2;
  id: string;
  /** Its project and region, from the state (or the command line's when the state has none). */
  scope: Scope;
  /** A pool member's pool. */
  poolId?: string;
  /** A v2 pool's members as the state lists them (address:port), separate ones included. */
  inlineMembers?: string[];
}

/** A resource instance the state holds that cims-import does not adopt, and why. */
export interface Skipped {
  address: string;
  type: string;
  why: string;
}

export interface TerraformRecords {
  adopted: AdoptedRecord[];
  skipped: Skipped[];
}

/** The state is not one cims-import reads: says what it is and what to do. */
export class TerraformStateError extends Error {}

const VENDOR = /\/g-core\/gcore"\]$/i;

/** What Go's unicode.IsPrint does not take (Terraform writes those as `\uNNNN` in a key). */
const NOT_PRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/u;

/**
 * A for_each key as Terraform writes it in an address (addrs.StringKey): HCL's quoted string,
 * with `${` and `%{` doubled and what does not print as `\uNNNN`, so `terraform state rm`
 * parses it back to the key.
 */
export function hclQuoted(key: string): string {
  const escapes: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\" };
  const chars = [...key];
  const out = chars.map((c, i) => {
    if (escapes[c]) return escapes[c];
    if ((c === "$" || c === "%") && chars[i + 1] === "{") return c + c;
    if (!NOT_PRINTABLE.test(c)) return c;
    const code = c.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\U${code.toString(16).padStart(8, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
  return `"${out.join("")}"`;
}

/** `module.a.gcore_subnet.app["x"]`, as Terraform prints an instance's address. */
function addressOf(resource: Record<string, unknown>, indexKey: unknown): string {
  const module = typeof resource.module === "string" && resource.module ? `${resource.module}.` : "";
  const data = resource.mode === "data" ? "data." : "";
  const index = indexKey === undefined ? "" : typeof indexKey === "number" ? `[${indexKey}]` : `[${hclQuoted(String(indexKey))}]`;
  return `${module}${data}${String(resource.type)}.${String(resource.name)}${index}`;
}

const NAME = "[A-Za-z_][A-Za-z0-9_-]*";
const KEY = `\\[(?:\\d+|"(?:[^"\\\\]|\\\\.)*")\\]`;
const MODULE = new RegExp(`^module\\.${NAME}(?:${KEY})?(?:\\.module\\.${NAME}(?:${KEY})?)*$`);

/**
 * Why the state's names for a resource make no address Terraform could have written (a
 * hand-edited or hostile state: a newline or a quote in a name), or undefined. Such an instance
 * is adopted by no program and given no `terraform state rm` line.
 */
function badNames(resource: Record<string, unknown>): string | undefined {
  const module = resource.module;
  const names =
    typeof resource.type === "string" &&
    new RegExp(`^${NAME}$`).test(resource.type) &&
    typeof resource.name === "string" &&
    new RegExp(`^${NAME}$`).test(resource.name);
  const moduleOk = module === undefined || module === "" || (typeof module === "string" && MODULE.test(module) && !hasUnsafe(module));
  if (names && moduleOk) return undefined;
  return (
    "the state's module, type or name for it is no Terraform name (is the state hand-edited?): nothing is adopted " +
    "from it, and no `terraform state rm` is written for it; check the state with `terraform state list`"
  );
}

const positive = (v: unknown): number | undefined => {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The instance's project and region: its attributes', else the command line's. */
function scopeOf(attributes: Record<string, unknown>, fallback: Scope | undefined): Scope | undefined {
  const projectId = positive(attributes.project_id) ?? fallback?.projectId;
  const regionId = positive(attributes.region_id) ?? fallback?.regionId;
  return projectId !== undefined && regionId !== undefined ? { projectId, regionId } : undefined;
}

/** Why the state is refused, or undefined when it is a version 4 state. */
function refusal(state: unknown, file: string): string | undefined {
  if (!isRecord(state)) return `${file} is not a Terraform state (a JSON object with "version": 4 and "resources").`;
  if (state.version !== 4) {
    return (
      `${file} is a Terraform state of format version ${JSON.stringify(state.version)}; cims-import reads version 4 ` +
      "(Terraform 0.12 and later). Run `terraform state pull > terraform.tfstate` with Terraform 0.12 or later, and give that file."
    );
  }
  if (!Array.isArray(state.resources)) return `${file} has no "resources" list: is it a Terraform state?`;
  return undefined;
}

/** One instance of a vendor resource: adopted, or why not. */
function instanceOf(
  resource: Record<string, unknown>,
  attributes: Record<string, unknown>,
  address: string,
  fallback: Scope | undefined,
): AdoptedRecord | Skipped {
  const type = String(resource.type);
  const row = ADOPTED_TYPES[type];
  if (!row) return { address, type, why: NOT_ADOPTED[type] ?? `no pulumi-cims kind manages ${type}` };
  const refused = row.refuse?.(attributes);
  if (refused) return { address, type, why: refused };
  const id = attributes.id;
  if ((typeof id !== "string" || id === "") && typeof id !== "number") return { address, type, why: "the state holds no id for it" };
  const scope = scopeOf(attributes, fallback);
  if (!scope) return { address, type, why: "the state names no project_id and region_id for it: give --project and --region" };
  const record: AdoptedRecord = { address, type, kind: row.kind, generation: row.generation, id: String(id).toLowerCase(), scope };
  if (row.kind === "LbPoolMember") {
    if (typeof attributes.pool_id !== "string") return { address, type, why: "the state names no pool_id for this member" };
    record.poolId = attributes.pool_id.toLowerCase();
  }
  if (row.kind === "LbPoolSettings" && Array.isArray(attributes.members)) {
    record.inlineMembers = recordsIn(attributes.members).map((m) => memberKey(m.address, m.protocol_port));
  }
  return record;
}

/**
 * The records a version 4 state's resources adopt, and every other instance with why not.
 * `fallback`: the project and region for instances whose state names none (--project, --region).
 */
export function readTerraformState(text: string, file: string, fallback?: Scope): TerraformRecords {
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch (err) {
    throw new TerraformStateError(`${file} is not JSON (${messageOf(err)}): is it a Terraform state?`);
  }
  const refused = refusal(state, file);
  if (refused || !isRecord(state)) throw new TerraformStateError(refused);
  const out: TerraformRecords = { adopted: [], skipped: [] };
  for (const resource of recordsIn(state.resources)) {
    const type = String(resource.type);
    for (const instance of recordsIn(resource.instances)) {
      const address = addressOf(resource, instance.index_key);
      const attributes = isRecord(instance.attributes) ? instance.attributes : {};
      const bad = badNames(resource);
      if (bad) out.skipped.push({ address: visible(address), type: visible(type), why: bad });
      else if (resource.mode === "data")
        out.skipped.push({ address, type, why: "a data source: Terraform only reads it, there is nothing to adopt" });
      else if (!VENDOR.test(String(resource.provider))) {
        out.skipped.push({ address, type, why: `not the vendor's provider (${String(resource.provider)})` });
      } else {
        const r = instanceOf(resource, attributes, address, fallback);
        if ("why" in r) out.skipped.push(r);
        else out.adopted.push(r);
      }
    }
  }
  return out;
}
