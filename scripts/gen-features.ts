// docs/features.md's table, written by `npm run gen` from the registry, the contracts and
// schema.json's `functions`: each of our kinds, and each lookup the schema declares, beside the
// vendor's Terraform provider in its two generations and the Pulumi package bridged from it,
// with what each of them lacks. A kind, a Terraform name or a lookup added elsewhere shows here
// at the next `npm run gen`, with no edit of this file.
import { operation } from "../api/contract";
import { LOOKUPS } from "../api/lookups";
import { toKebab } from "../api/names";
import { KIND_NAMES, kind } from "../provider/kinds/registry";

type Json = Record<string, unknown>;

const code = (s: string) => `\`${s}\``;

/** A kind's row: the Terraform types of each generation, and what each of the four lacks. */
function kindRow(name: (typeof KIND_NAMES)[number]): string {
  const contract = kind(name).descriptor.contract;
  const names = contract.terraform ?? [];
  const of = (g: 1 | 2) => names.filter((t) => t.generation === g).map((t) => code(t.type));
  const [v1, v2] = [of(1), of(2)];
  const makes = operation(contract, "create") !== undefined;
  const lacks = [
    makes ? undefined : "pulumi-cims makes no such record: it manages one that exists anyway",
    v1.length === 0 ? "Terraform v1 and the bridged package: no type" : undefined,
    v2.length === 0 ? "Terraform v2: no type" : undefined,
    v1.length > 0 && v2.length > 0 ? "Terraform: v2 renames v1's type, with no state upgrade between them" : undefined,
  ].filter((s): s is string => s !== undefined);
  const ours = `[${code(name)}](resources/${toKebab(name)}.md)`;
  const cells = [ours, v1.join(", ") || "none", v2.join(", ") || "none", v1.length > 0 ? "v1's type, bridged" : "none"];
  return `| ${cells.join(" | ")} | ${lacks.join("; ") || "none of them lacks it"} |\n`;
}

/** A lookup's row (schema.json `functions`): the vendor's data sources that find the same record (api/lookups.ts). */
function functionRow(token: string): string {
  const name = token.split(":").pop() ?? token;
  const names = LOOKUPS.find((l) => l.name === name)?.terraform ?? [];
  const of = (g: 1 | 2) => names.filter((t) => t.generation === g).map((t) => code(t.type));
  const [v1, v2] = [of(1), of(2)];
  const lacks = [
    v1.length === 0 ? "Terraform v1 and the bridged package: no data source" : undefined,
    v2.length === 0 ? "Terraform v2: no data source" : undefined,
  ].filter((s): s is string => s !== undefined);
  const ours = `[${code(name)}](functions/${toKebab(name)}.md) (lookup)`;
  const cells = [ours, v1.join(", ") || "none", v2.join(", ") || "none", v1.length > 0 ? "v1's data source, bridged" : "none"];
  return `| ${cells.join(" | ")} | ${lacks.join("; ") || "none of them lacks it"} |\n`;
}

/** The table between docs/features.md's `features` markers. */
export function featuresTable(schema: Json): string {
  let table = "| pulumi-cims | Terraform v1 | Terraform v2 | bridged Pulumi package | what each lacks |\n|---|---|---|---|---|\n";
  for (const name of KIND_NAMES) table += kindRow(name);
  const functions = Object.keys((schema.functions as Json | undefined) ?? {}).sort();
  for (const token of functions) table += functionRow(token);
  return table;
}
