// The fault matrix's rows of a kind come from its contract and its test kit (tests/kits/,
// `faults`): the requests and the task rows from the contract's operations, the outcomes of a
// lost create from the kit; a kind whose kit says nothing of faults has no rows.
import { operation } from "../../../api/contract";
import { LbPoolMember } from "../../../api/contract/lb-pool-member";
import { FAULTS, matrixOf, messageOf, rowsOf } from "../../support/faults";

test("a kind's requests and task rows are its contract's: method, path in the seed's scope, task type", () => {
  const member = matrixOf("LbPoolMember");
  const create = operation(LbPoolMember, "create")!;
  expect(member.requests.create).toEqual({
    method: create.method,
    path: expect.stringMatching(/^\/cloud\/v1\/loadbalancers\/1\/1\/pools\/[0-9a-f-]+\/members$/),
  });
  expect(member.requests.refresh).toEqual({ method: "GET", path: `${member.requests.create!.path}/**` });
  expect(String(messageOf(member.expected.create!["task ERROR"], 0))).toContain(`\\(${create.task}\\) failed`);
  expect(String(messageOf(member.expected.delete!["task ERROR"], 0))).toContain(`\\(${operation(LbPoolMember, "delete")!.task}\\) failed`);
  // Refused before the service could act: the create's POST is repeated, whatever the kind.
  for (const fault of ["429 with Retry-After", "503", "409"]) expect(member.expected.create![fault].outcome).toBe("recovers");
});

test("every fault has an outcome in each operation a kit runs; the ops default to the contract's", () => {
  expect(Object.keys(matrixOf("LbPoolMember").expected).sort()).toEqual(["create", "delete", "refresh", "update"]);
  expect(Object.keys(matrixOf("Subnet").expected).sort()).toEqual(["create", "delete", "refresh"]);
  for (const kind of ["Subnet", "LbPoolSettings", "LbPoolMember"] as const) {
    const m = matrixOf(kind);
    for (const op of Object.keys(m.expected) as Array<keyof typeof m.expected>)
      expect(rowsOf(m, op).length + FAULTS.filter((f) => m.expected[op]![f.name].outcome === "n/a").length).toBe(FAULTS.length);
  }
});

test("a kind whose kit says nothing of faults has no rows, and the error says where to give them", () => {
  expect(() => matrixOf("BaremetalImage")).toThrow("BaremetalImage's test kit (tests/kits/) says nothing of faults: give it `faults`");
});
