// Injected faults (the control API's POST /__emulator/faults). Some act before the service
// would (drop the connection, answer late, answer a status without acting); the `-after`
// ones after it has acted (the caller never hears back, or hears a gateway's error instead).
import * as http from "node:http";
import type { App } from "../app";
import { HttpError } from "../http-errors";
import type { RequestFault } from "../faults";
import type { Reply } from "../router";
import type { Exchange } from "./exchange";
import { elapsed, logRequest } from "./log";
import { reply, replyError } from "./reply";

const EXCEPTION_BY_STATUS: Record<number, string> = {
  400: "ValidationError",
  401: "NotAuthenticated",
  403: "PermissionDenied",
  404: "NotFoundError",
  405: "MethodNotAllowed",
  408: "RequestTimeout",
  409: "ConflictError",
  413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType",
  429: "Throttled",
  500: "InternalServerError",
  502: "BadGateway",
  503: "ServiceUnavailable",
  504: "GatewayTimeout",
};

/** The fault the request draws, if any (taken now: a counted fault is spent on it). The control API draws none. */
export function drawFault(app: App, x: Exchange): RequestFault | undefined {
  return x.isControl ? undefined : app.faults.forRequest(x.method, x.url.pathname);
}

/** Applies a fault that acts before the service does; true when it has handled the request. */
export async function faultBefore(app: App, x: Exchange, fault: RequestFault): Promise<boolean> {
  switch (fault.action) {
    case "close":
      x.req.socket.destroy();
      break;
    case "delay":
      await app.clock.sleep(fault.delayMs ?? 0);
      return false;
    case "close-after":
    case "status-after":
      return false;
    case "status":
      // A gateway may answer late (its own timeout) as well as at once.
      if (fault.delayMs) await app.clock.sleep(fault.delayMs);
      answerFault(app, x, fault);
      break;
  }
  logRequest(app, x, `fault:${fault.action} ${elapsed(x)}`);
  return true;
}

/** Applies a fault that acts after the service has (`answer` is what it would have said); true when it has. */
export function faultAfter(app: App, x: Exchange, fault: RequestFault | undefined, answer: Reply): boolean {
  if (fault?.action === "close-after") {
    logRequest(app, x, `${answer.status} then connection dropped ${elapsed(x)}`);
    x.req.socket.destroy();
    return true;
  }
  if (fault?.action === "status-after") {
    logRequest(app, x, `${answer.status} then answered ${String(fault.status)}`);
    answerFault(app, x, fault);
    return true;
  }
  return false;
}

/** A status fault's answer: the service's JSON error, or a gateway's HTML page (`proxy`). */
function answerFault(app: App, x: Exchange, fault: RequestFault): void {
  const status = fault.status ?? 500;
  const headers: Record<string, string> = fault.retryAfter ? { "retry-after": String(fault.retryAfter) } : {};
  if (fault.proxy) {
    const title = `${status} ${http.STATUS_CODES[status] ?? "Error"}`;
    reply(app, x, status, `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`, headers);
    return;
  }
  const message = typeof fault.body?.message === "string" ? fault.body.message : `Injected fault: ${status}.`;
  replyError(app, x, new HttpError(status, EXCEPTION_BY_STATUS[status] ?? "APIException", message, undefined, headers));
}
