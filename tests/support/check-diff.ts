// What the per-resource check/diff tests (tests/unit/provider/kinds/) share: seeded ids, the
// default scope from cims: config, and failures by property.
import { setConfig } from "../../provider/methods/context";
import { forgetHoldings } from "../../provider/methods/holdings";

export const NET = "0b7d9c9e-4a5f-4d1b-9a57-3c2f6f1e8a01";
export const VOL = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
export const POOL = "3d4e5f60-7a8b-4c9d-8e0f-1a2b3c4d5e6f";
export const SUB = "1b2c3d4e-5f60-4a1b-8c2d-3e4f5a6b7c8d";

/**
 * cims:projectId 1 and cims:regionId 2, the defaults resources take, for the file's tests;
 * each test checks as the first of a deployment (no other resource of its program noted).
 */
export function withScopeConfig(): void {
  beforeAll(() => setConfig((key) => ({ "cims:projectId": "1", "cims:regionId": "2" })[key]));
  beforeEach(forgetHoldings);
}

export const props = (failures: Array<{ property: string }> | undefined): string[] => (failures ?? []).map((f) => f.property).sort();
