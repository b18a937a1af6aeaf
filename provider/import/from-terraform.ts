// `cims-import --from-terraform`: the records a Terraform state names (terraform.ts), read
// from the service one by one, as the module generate.ts writes. A record the state names
// that the service answers 404 for is named and left out, the rest adopted all the same: the
// 404 may mean the record is gone, or that it was looked for in the wrong project or region
// (the state's, or --project/--region), so the line says where it looked before any advice
// to forget it.
// A pool's members that the state holds as separate resources are adopted as LbPoolMember,
// not in the pool's `members` (each would be managed twice, and the pool's list would be sent
// without the others'); a v1 pool (`gcore_lbpool`) manages no members at all, so its
// `members` is left out.
import { type ApiRecord, recordsIn } from "../../api/guards";
import { memberKey } from "../../api/members";
import { NotFoundError } from "../client/errors";
import type { CimsClient } from "../client/http";
import { kind } from "../kinds/registry";
import { generateModule, type ImportRecords, type Language, type Omission } from "./generate";
import type { IgnoreTags } from "../config";
import type { AdoptedRecord, Skipped, TerraformRecords } from "./terraform";
import { shellWord, visible } from "./quote";

/** What a state's records came to: the program, and what it does not adopt. */
export interface TerraformImport {
  source: string;
  adopted: AdoptedRecord[];
  /** Named by the state, not found by the service where the state says it is (404). */
  gone: AdoptedRecord[];
  skipped: Skipped[];
  /** What an adopted record's import left out of it, and why (a pool's members some stack made). */
  notes: string[];
}

/** The path a state record is read at. */
const recordPath = (r: AdoptedRecord) => kind(r.kind).descriptor.recordPath(r.scope, r.id, { poolId: r.poolId });

/**
 * A 404 for a record the state names, as a line for the report and the program's head: where
 * it was looked for, and what to check first. No `terraform state rm` here: when the scope was
 * wrong the record is alive, and Terraform would let it go unmanaged.
 */
export const goneLine = (r: AdoptedRecord) =>
  visible(
    `${r.address} (${r.type}): the service answered 404 for ${kind(r.kind).descriptor.import.nouns[0]} ${r.id} in ` +
      `project ${r.scope.projectId}, region ${r.scope.regionId} (GET ${recordPath(r)}). Check that project and region ` +
      "(the state's project_id and region_id for it, or --project/--region where the state names none) before " +
      "removing it from Terraform's state: the record may be alive elsewhere.",
  );
export const skippedLine = (s: Skipped) => visible(`${s.address} (${s.type}): ${s.why}`);

/** The service's record of one state record, annotated with what the state says of its scope and pool; undefined when gone. */
async function readOne(client: CimsClient, r: AdoptedRecord): Promise<ApiRecord | undefined> {
  const d = kind(r.kind).descriptor;
  try {
    const record = await client.record("GET", d.recordPath(r.scope, r.id, { poolId: r.poolId }), {}, d.recordKey);
    // A member's record names neither its pool nor its scope: the state does.
    return { project_id: r.scope.projectId, region_id: r.scope.regionId, ...(r.poolId ? { pool_id: r.poolId } : {}), ...record };
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/**
 * Why a record the service holds is none its kind adopts: BaremetalImage is an image made from
 * a volume, and a v2 state's `gcore_cloud_instance_image` may be an upload (from its `url`).
 */
function unadoptable(r: AdoptedRecord, record: ApiRecord): string | undefined {
  if (r.kind !== "BaremetalImage" || (record.source === "volume" && typeof record.volume_id === "string")) return undefined;
  return (
    `the service holds image ${r.id} as made from ${JSON.stringify(record.source ?? null)}, not from a volume: ` +
    "BaremetalImage manages images made from a volume"
  );
}

/** A pool's record with `members` as the program manages them, or an omission (v1: none). */
function poolMembers(pool: ApiRecord, r: AdoptedRecord, separate: Set<string>): { record: ApiRecord; omit?: Omission } {
  const id = String(pool.id).toLowerCase();
  if (r.inlineMembers === undefined) {
    const why =
      `${r.type} manages no members (a pool's members are ${r.generation === 1 ? "gcore_lbmember" : "separate"} resources, ` +
      "adopted as LbPoolMember); `members` here would take over every member the pool holds.";
    return { record: pool, omit: { type: "LbPoolSettings", id, arg: "members", why } };
  }
  const inline = new Set(r.inlineMembers);
  const members = recordsIn(pool.members).filter(
    (m) => !separate.has(String(m.id).toLowerCase()) && inline.has(memberKey(m.address, m.protocol_port)),
  );
  return { record: { ...pool, members } };
}

/**
 * Reads every record the state adopts (GET by id, in the state's order) and writes the
 * program. `header`: lines for the module's head (the command line).
 */
export async function importFromTerraform(
  client: CimsClient,
  tf: TerraformRecords,
  options: { header: string[]; protect: boolean; language?: Language; ignoreTags?: IgnoreTags },
): Promise<TerraformImport> {
  const found: Array<[AdoptedRecord, ApiRecord]> = [];
  const gone: AdoptedRecord[] = [];
  const skipped = [...tf.skipped];
  for (const r of tf.adopted) {
    const record = await readOne(client, r);
    const why = record && unadoptable(r, record);
    if (why) skipped.push({ address: r.address, type: r.type, why });
    else if (record) found.push([r, record]);
    else gone.push(r);
  }
  const separate = new Set(found.filter(([r]) => r.kind === "LbPoolMember").map(([r]) => r.id));
  const records: ImportRecords = {};
  const omit: Omission[] = [];
  const notes: string[] = [];
  // Two addresses may name one record (both generations' types, midway through moving): one
  // resource adopts it (two would share its name), and Terraform forgets both.
  const seen = new Set<string>();
  const adopted: AdoptedRecord[] = [];
  for (const [r, record] of found) {
    if (seen.has(`${r.kind} ${r.id}`)) continue;
    seen.add(`${r.kind} ${r.id}`);
    adopted.push(r);
    const pool = r.kind === "LbPoolSettings" ? poolMembers(record, r, separate) : { record };
    if (pool.omit) omit.push(pool.omit);
    // As every import path does: what the kind's import may take (a pool's members some stack made stay theirs).
    const row = kind(r.kind).descriptor.import;
    const prepared = pool.omit || !row.prepare ? { record: pool.record, notes: [] } : await row.prepare(client, pool.record, r.scope);
    for (const why of prepared.notes) omit.push({ type: r.kind, id: String(row.id(record)), why });
    notes.push(...prepared.notes.map((why) => `${r.address}: ${why}`));
    (records[r.kind] ??= []).push(prepared.record);
  }
  const header = [
    ...options.header,
    ...(found.length > 0
      ? [
          "Once `pulumi up` has adopted them, Terraform lets them go with:",
          ...found.map(([r]) => `  terraform state rm ${shellWord(r.address)}`),
        ]
      : []),
    ...(gone.length > 0
      ? ["Named by the state, not found where the service was asked (404; not adopted):", ...gone.map((r) => `  ${goneLine(r)}`)]
      : []),
    ...(skipped.length > 0 ? ["Not adopted:", ...skipped.map((s) => `  ${skippedLine(s)}`)] : []),
  ];
  const scope = adopted[0]?.scope ?? { projectId: 1, regionId: 1 };
  const source = generateModule(records, scope, {
    header,
    protect: options.protect,
    omit,
    language: options.language,
    ignoreTags: options.ignoreTags,
  });
  return { source, adopted, gone, skipped, notes };
}
