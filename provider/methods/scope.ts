// projectId and regionId: from the resource, else the `cims:` config or the environment. Pure:
// the defaults come from the caller (context.ts reads them).

import type { CheckFailure, Inputs } from "./schema";
import { messageOf } from "../../api/messages";

export interface ScopeDefaults {
  projectId?: number;
  regionId?: number;
}

/** The inputs with their scope filled in; a failure naming both ways to set it when neither does. */
export function withScope(inputs: Inputs, defaults: () => ScopeDefaults): { inputs: Inputs; failures: CheckFailure[] } {
  let given: ScopeDefaults;
  try {
    given = defaults();
  } catch (err) {
    // A malformed cims:projectId/regionId: say so where the resource needs it.
    const failures = (["projectId", "regionId"] as const)
      .filter((key) => inputs[key] === undefined && messageOf(err).includes(`cims:${key}`))
      .map((property) => ({ property, reason: `${property}: ${messageOf(err)}` }));
    return { inputs, failures };
  }
  const out = { ...inputs, projectId: inputs.projectId ?? given.projectId, regionId: inputs.regionId ?? given.regionId };
  const failures: CheckFailure[] = [];
  for (const key of ["projectId", "regionId"] as const) {
    if (out[key] === undefined) {
      failures.push({
        property: key,
        reason: `${key} is required: set it on the resource, or set \`pulumi config set cims:${key} <id>\` (or CIMS_${key === "projectId" ? "PROJECT" : "REGION"}_ID)`,
      });
    }
  }
  return { inputs: out, failures };
}
