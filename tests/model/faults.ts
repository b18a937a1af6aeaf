// Faults the model arms for its next pulumi command: each request fault of docs/reliability.md's
// fault matrix on each call the provider makes, and task faults on each call the contracts say
// answers with a task. The calls are those of the kinds the model's program declares (their test
// kits' `lifecycle`), from their contracts, in the seed's scope and records.
import { type Contract, idParam, operation } from "../../api/contract";
import { KIND_NAMES, kind } from "../../provider/kinds/registry";
import { KITS } from "../kits";
import { SEEDED_PARAMS } from "../support/cims";
import type { FaultSpec } from "./system";

type Target = [method: string, path: string, task?: string];

/** A call's path on the seed's records; a record the program makes is any (`*`). */
const seeded = (contract: Contract, template: string): string => {
  const params: Record<string, string> = { [idParam(contract)]: "*", ...SEEDED_PARAMS };
  return template.replace(/\{([a-z_]+)\}/g, (_all, p: string) => params[p] ?? "*");
};

/**
 * A kind's reads and writes: its record's GET (for a kind that creates its records and lists
 * them beneath, the list's and every record's: reads coalesce), its update and its delete.
 */
function callsOf(contract: Contract): Target[] {
  const [create, list, get] = [operation(contract, "create"), operation(contract, "list"), operation(contract, "get")!];
  const one = seeded(contract, get.template);
  const listed = create && list ? seeded(contract, list.template) : undefined;
  const read: Target = ["GET", listed && one.startsWith(`${listed}/`) ? `${listed}/**` : one];
  const writes = (["update", "delete"] as const).flatMap((name) => {
    const op = operation(contract, name);
    return op ? [[op.method, seeded(contract, op.template), op.task] as Target] : [];
  });
  return [read, ...writes];
}

const MODELLED = KIND_NAMES.filter((k) => KITS[k].lifecycle).map((k) => kind(k).descriptor.contract);

/** The creates first (the program makes its records before it changes them), then each kind's calls, then any call. */
const TARGETS: Target[] = [
  ...MODELLED.flatMap((c) => {
    const create = operation(c, "create");
    return create ? [["POST", seeded(c, create.template), create.task] as Target] : [];
  }),
  ...MODELLED.flatMap(callsOf),
  ["GET", "/cloud/v1/tasks/*"],
  ["*", "/cloud/**"],
];

const TASK_TARGETS = TARGETS.filter(([, , task]) => task !== undefined);

const LOCKED = "Resource is locked by running task 0e8b5c52-0d6a-4b5e-9d6e-3c1f2a7b8c9d.";

const REQUEST_FAULTS: Array<{ label: string; body: Record<string, unknown> }> = [
  { label: "429 + Retry-After 1 (x2)", body: { count: 2, action: "status", status: 429, retryAfter: "1" } },
  { label: "503 (x2)", body: { count: 2, action: "status", status: 503 } },
  { label: "500", body: { count: 1, action: "status", status: 500 } },
  { label: "409 locked (x2)", body: { count: 2, action: "status", status: 409, body: { message: LOCKED } } },
  { label: "connection reset", body: { count: 1, action: "close" } },
  { label: "answer 6 s late (request timeout 3 s)", body: { count: 1, action: "delay", delayMs: 6000 } },
];

export const FAULTS: FaultSpec[] = [
  ...TARGETS.flatMap(([method, path]) =>
    REQUEST_FAULTS.map((f) => ({
      label: `${f.label} on ${method} ${path}`,
      kind: "request" as const,
      body: { method, path, ...f.body },
    })),
  ),
  ...TASK_TARGETS.flatMap(([method, path]) => [
    {
      label: `task ERROR on ${method} ${path}`,
      kind: "task" as const,
      body: { method, path, count: 1, message: "Backend capacity exhausted" },
    },
    { label: `task never finishes on ${method} ${path}`, kind: "task" as const, body: { method, path, count: 1, hang: true }, hang: true },
  ]),
];
