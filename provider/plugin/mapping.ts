// What Pulumi's converters read of this provider (`pulumi convert --from terraform`, `pulumi
// package get-mapping terraform <plugin>`): GetMapping("terraform") answers, for the vendor's
// Terraform provider (`gcore`), each of its resource types that is one of our kinds, in both
// generations (each contract's `terraform` names), in the JSON of pulumi-terraform-bridge's
// MarshallableProviderInfo: the Pulumi type token of each type, the Terraform attributes' schema
// (the API's snake_case names, which the converter camelCases into ours), and the attribute
// whose name is not ours (the first generation's tags, `metadata_map`).
import type { FieldType } from "../../api/contract";
import { toSnake } from "../../api/names";
import { KIND_NAMES, kind } from "../kinds/registry";
import { shapeOf } from "../methods/shape";

/** The Terraform provider whose types the mapping names. */
export const TERRAFORM_PROVIDER = "gcore";

/** The first generation's name of a kind's tags (the second's is `tags`, as ours). */
const V1_TAGS = "metadata_map";

/** pulumi-terraform-bridge's shim.ValueType: how a Terraform attribute's type is written. */
const TF_TYPE = { bool: 1, int: 2, float: 3, string: 4, list: 5, map: 6 } as const;

type Json = Record<string, unknown>;

/** A Terraform attribute's schema (MarshallableSchema) for a field of ours. */
function attributeOf(type: FieldType, required: boolean): Json {
  const need = required ? { required: true } : { optional: true };
  switch (type.kind) {
    case "string":
      return { type: TF_TYPE.string, ...need };
    case "integer":
      return { type: TF_TYPE.int, ...need };
    case "number":
      return { type: TF_TYPE.float, ...need };
    case "boolean":
      return { type: TF_TYPE.bool, ...need };
    case "tags":
      return { type: TF_TYPE.map, ...need, element: { schema: { type: TF_TYPE.string } } };
    case "array":
      return { type: TF_TYPE.list, ...need, element: elementOf(type.items) };
    case "object":
      // Terraform writes a nested object as a block: a list of at most one.
      return { type: TF_TYPE.list, ...need, maxItems: 1, element: elementOf(type) };
  }
}

function elementOf(type: FieldType): Json {
  if (type.kind !== "object") return { schema: attributeOf(type, false) };
  return {
    resource: Object.fromEntries(Object.entries(type.fields).map(([n, f]) => [toSnake(n), attributeOf(f.type, f.required === true)])),
  };
}

/** A kind's Terraform resource schema (MarshallableResource) and its renames and one-item blocks (SchemaInfo). */
function resourceOf(name: (typeof KIND_NAMES)[number], generation: 1 | 2): { schema: Json; fields: Json } {
  const shape = shapeOf(kind(name).descriptor);
  const schema: Json = { id: { type: TF_TYPE.string, computed: true } };
  const fields: Json = {};
  // The API's own fields, the record's scope and what names it: Terraform's attributes are those (no provider option of ours).
  const api = (i: (typeof shape.inputs)[number]) =>
    !i.own || i.name === "projectId" || i.name === "regionId" || i.name in (shape.contract.identity ?? {});
  for (const input of shape.inputs.filter(api)) {
    const tags = input.field.type.kind === "tags" && generation === 1;
    const attribute = tags ? V1_TAGS : toSnake(input.name);
    schema[attribute] = attributeOf(input.field.type, input.field.required === true);
    if (tags) fields[attribute] = { name: input.name };
    else if (input.field.type.kind === "object") fields[attribute] = { maxItemsOne: true };
  }
  return { schema, fields };
}

/** The mapping of the vendor's Terraform types to ours, as pulumi-terraform-bridge marshals a provider's info. */
export function terraformMapping(version: string): Json {
  const schemas: Json = {};
  const resources: Json = {};
  for (const name of KIND_NAMES) {
    for (const { type, generation } of kind(name).descriptor.contract.terraform ?? []) {
      const { schema, fields } = resourceOf(name, generation);
      schemas[type] = schema;
      resources[type] = { tok: `cims:index:${name}`, fields, idFields: ["id"] };
    }
  }
  return { name: TERRAFORM_PROVIDER, version, provider: { resources: schemas }, resources };
}
