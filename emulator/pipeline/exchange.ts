// One request as it goes through the pipeline: what every stage reads (method, target, its
// id and start time) and what earlier stages found that the last ones report (the route's
// pattern for metrics, the body for the request log).
import { randomUUID } from "node:crypto";
import type * as http from "node:http";

export interface Target {
  pathname: string;
  search: string;
  searchParams: URLSearchParams;
}

export interface Exchange {
  readonly req: http.IncomingMessage;
  readonly res: http.ServerResponse;
  readonly started: number;
  readonly requestId: string;
  readonly method: string;
  readonly url: Target;
  /** A control API call: answered on loopback only, without auth, faults, metrics or request log. */
  readonly isControl: boolean;
  /** The matched route's pattern; "(unmatched)" until the route stage finds one. */
  routeName: string;
  /** The body as read (undefined until then), for the request log. */
  requestBody: unknown;
}

export function openExchange(req: http.IncomingMessage, res: http.ServerResponse): Exchange {
  const url = requestUrl(req.url);
  return {
    req,
    res,
    started: Date.now(),
    requestId: randomUUID(),
    method: req.method ?? "GET",
    url,
    isControl: url.pathname.startsWith("/__emulator/"),
    routeName: "(unmatched)",
    requestBody: undefined,
  };
}

/**
 * The request target. Only origin-form targets ("/path?query") are served: "//x", absolute
 * URLs and targets `new URL` cannot parse get an empty pathname (the route stage answers 400),
 * instead of throwing before the pipeline's error handling, which would stop the whole server.
 */
function requestUrl(target: string | undefined): Target {
  const raw = target ?? "/";
  if (raw.startsWith("/") && !raw.startsWith("//")) {
    try {
      return new URL(raw, "http://emulator");
    } catch {
      // An unparseable target: answered by the route stage.
    }
  }
  return { pathname: "", search: "", searchParams: new URLSearchParams() };
}
