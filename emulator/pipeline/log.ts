// What a request leaves behind: one log line (never the key), a count in the metrics under
// its route and status (bench and e2e tests read both, e.g. `GET /cloud/v1/tasks/:task_id
// 200`), and, with a request log, one JSON line with the body as sent. The control API's own
// calls are logged but neither counted nor in the request log: they are not the API's traffic.
import * as fs from "node:fs";
import type { App } from "../app";
import { stringifyJson } from "../../api/json";
import type { Exchange } from "./exchange";

/** How long the request has taken so far, as the log lines say it. */
export const elapsed = (x: Exchange): string => `${Date.now() - x.started}ms`;

/** One log line about the request: its method and target, then `what` happened. */
export function logRequest(app: App, x: Exchange, what: string): void {
  app.log(`${x.method} ${x.url.pathname}${x.url.search} ${what}`);
}

/** Written before the answer is sent, so a caller that has its answer finds the line. */
export function writeRequestLog(app: App, x: Exchange, status: number): void {
  if (!app.requestLog || x.isControl) return;
  const line = {
    method: x.method,
    path: x.url.pathname,
    route: x.routeName,
    status,
    user_agent: x.req.headers["user-agent"] ?? null,
    body: x.requestBody,
  };
  fs.appendFileSync(app.requestLog, `${stringifyJson(line)}\n`);
}

/** The answer sent: counted, then logged. */
export function logAnswer(app: App, x: Exchange, status: number): void {
  if (!x.isControl) app.metrics.request(x.method, x.routeName, status);
  logRequest(app, x, `${status} ${elapsed(x)}`);
}
