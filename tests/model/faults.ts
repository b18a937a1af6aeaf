// Faults the model arms for its next pulumi command: each request fault of docs/reliability.md's
// fault matrix on each call the provider makes, and task faults on each asynchronous call.
import type { FaultSpec } from "./system";
import { POOL_PATH } from "./system";

const TARGETS: Array<[method: string, path: string]> = [
  ["POST", "/cloud/v1/subnets/1/1"],
  ["POST", "/cloud/v1/bmimages/1/1"],
  ["GET", "/cloud/v1/subnets/1/1/**"],
  ["PATCH", "/cloud/v1/subnets/1/1/*"],
  ["DELETE", "/cloud/v1/subnets/1/1/*"],
  ["GET", "/cloud/v1/images/1/1/*"],
  ["PATCH", "/cloud/v1/images/1/1/*"],
  ["DELETE", "/cloud/v1/images/1/1/*"],
  ["GET", POOL_PATH],
  ["PATCH", POOL_PATH],
  ["GET", "/cloud/v1/lifecycle_policy/1/1/101"],
  ["PATCH", "/cloud/v1/lifecycle_policy/1/1/101"],
  ["GET", "/cloud/v2/client_quotas/1/notification_threshold"],
  ["PUT", "/cloud/v2/client_quotas/1/notification_threshold"],
  ["DELETE", "/cloud/v2/client_quotas/1/notification_threshold"],
  ["GET", "/cloud/v1/tasks/*"],
  ["*", "/cloud/**"],
];

const TASK_TARGETS = TARGETS.filter(([method, path]) => ["POST", "DELETE"].includes(method) || path === POOL_PATH).filter(
  ([method, path]) => method !== "GET" && !path.startsWith("/cloud/v2/"),
);

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
