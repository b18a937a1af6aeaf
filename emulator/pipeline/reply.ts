// The answer: JSON (exact integers), a gateway's HTML page, or an error in the service's
// shape; every one carries the request's id, as the service's do.
import type { App } from "../app";
import { HttpError } from "../http-errors";
import { stringifyJson } from "../../api/json";
import type { Exchange } from "./exchange";
import { logAnswer, writeRequestLog } from "./log";

/** A string body is a gateway's HTML page (a `proxy` fault); anything else is JSON. */
export function reply(app: App, x: Exchange, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  writeRequestLog(app, x, status);
  const html = typeof body === "string";
  const text = body === undefined ? "" : html ? body : stringifyJson(body);
  const type = html ? "text/html" : "application/json";
  x.res.writeHead(status, { "x-request-id": x.requestId, ...(text ? { "content-type": type } : {}), ...headers });
  x.res.end(text);
  logAnswer(app, x, status);
}

export function replyError(app: App, x: Exchange, err: HttpError): void {
  const body = {
    exception_class: err.exceptionClass,
    message: err.message,
    request_id: x.requestId,
    ...(err.invalidFields ? { invalid_fields: err.invalidFields } : {}),
  };
  reply(app, x, err.status, body, err.headers);
}

/** Whatever a stage threw: its HttpError, or a 500 that points to the log, which has the stack. */
export function replyFailure(app: App, x: Exchange, err: unknown): void {
  if (err instanceof HttpError) return replyError(app, x, err);
  app.log(`${x.method} ${x.url.pathname} internal error: ${(err instanceof Error ? err.stack : undefined) ?? String(err)}`);
  replyError(app, x, new HttpError(500, "InternalServerError", "The emulator failed on this request; see its log."));
}
