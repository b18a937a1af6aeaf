// The lifecycle model's faults (tests/model/faults.ts) come from the contracts of the kinds whose
// test kits say the model's program declares them: each request fault on each of their calls,
// task faults only on the calls their contracts say answer with a task.
import { SEED } from "../../support/cims";
import { FAULTS } from "../../model/faults";

const labels = FAULTS.map((f) => f.label);

test("a modelled kind's calls, in the seed's scope: its create, its reads (a subnet's coalesced), its update and delete", () => {
  for (const call of [
    "POST /cloud/v1/subnets/1/1",
    "GET /cloud/v1/subnets/1/1/**",
    "PATCH /cloud/v1/images/1/1/*",
    `PATCH /cloud/v1/lbpools/1/1/${SEED.poolId}`,
    `GET /cloud/v1/lifecycle_policy/1/1/${SEED.policyId}`,
    `DELETE /cloud/v2/client_quotas/${SEED.clientId}/notification_threshold`,
  ])
    expect(labels).toContain(`503 (x2) on ${call}`);
});

test("task faults go on the calls answered with a task, and on no other", () => {
  const tasked = FAULTS.filter((f) => f.kind === "task" && f.label.startsWith("task ERROR on ")).map((f) => f.label.slice(14));
  expect(tasked).toEqual([
    "POST /cloud/v1/subnets/1/1",
    "POST /cloud/v1/bmimages/1/1",
    "DELETE /cloud/v1/subnets/1/1/*",
    "DELETE /cloud/v1/images/1/1/*",
    `PATCH /cloud/v1/lbpools/1/1/${SEED.poolId}`,
  ]);
});
