// Errors users can act on: the resource is named, a 400's fields are camelCase, and a
// created-but-unreadable resource is reported with its id and properties (no orphan).
import { BadRequestError, TaskFailedError } from "../../../../provider/client/errors";
import { PartialCreateError } from "../../../../provider/methods/resource-errors";
import { camelPath } from "../../../../api/names";
import { withContext } from "../../../../provider/methods/calls";

test("a 400 names the resource and its invalid fields in camelCase", async () => {
  const err = await withContext('Subnet "app"', async () => {
    throw new BadRequestError(400, "POST", "/cloud/v1/subnets/1/1", {
      exception_class: "ValidationError",
      message: "Validation error",
      request_id: "r-7",
      invalid_fields: { network_id: ["Network is busy"], "host_routes[0].nexthop": ["bad"] },
    });
  }).catch((e: Error) => e);
  expect(err.message).toMatch(/^Subnet "app": the service rejected the request: networkId: Network is busy; hostRoutes\[0\]\.nexthop: bad/);
  expect(err.message).toContain("[request_id=r-7]");
});

test("a task failure keeps its class and gains the resource name", async () => {
  const err = await withContext('BaremetalImage "golden"', async () => {
    throw new TaskFailedError("t-1", "create_image", "Volume is in use");
  }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TaskFailedError);
  expect((err as Error).message).toBe('BaremetalImage "golden": task t-1 (create_image) failed: Volume is in use');
});

test("snake_case paths become camelCase", () => {
  expect(camelPath("members[1].protocol_port")).toBe("members[1].protocolPort");
  expect(camelPath("last_message.global_quotas.keypair_count_limit.limit")).toBe("lastMessage.globalQuotas.keypairCountLimit.limit");
});

test("PartialCreateError carries what Pulumi needs to record the resource", () => {
  const err = new PartialCreateError("created but not read", "id-1", { name: "a" });
  expect(err).toMatchObject({ id: "id-1", properties: { name: "a" }, reasons: ["created but not read"], code: "CIMS_PARTIAL_CREATE" });
});
