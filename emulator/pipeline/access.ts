// Who may ask: the control API from loopback only; the API with one of the account's keys,
// within the rate limit when one is set.
import type { App } from "../app";
import { HttpError } from "../http-errors";
import type { Exchange } from "./exchange";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** The control API resets and seeds the store: nobody off this machine may reach it. */
export function checkLoopback(x: Exchange): void {
  if (x.isControl && !LOOPBACK.has(x.req.socket.remoteAddress ?? "")) {
    throw new HttpError(403, "PermissionDenied", "The control API answers on loopback only.");
  }
}

export function authenticate(app: App, x: Exchange): void {
  if (x.isControl) return;
  const header = x.req.headers.authorization;
  if (header === undefined || header === "") {
    throw new HttpError(401, "NotAuthenticated", "Authentication credentials were not provided.");
  }
  // `<scheme> <key>`: the scheme is the spec's `apikey` in any case (RFC 9110, 11.1: schemes
  // are case-insensitive; the vendor's SDK sends `APIKey`), the key exactly.
  const space = header.indexOf(" ");
  if (space < 0 || header.slice(0, space).toLowerCase() !== "apikey" || !app.apiKeys.has(header.slice(space + 1))) {
    // The service's words for a wrong key are those for a missing one; only the class differs.
    throw new HttpError(401, "AuthenticationFailed", "Authentication credentials were not provided.");
  }
}

/** Per key (the Authorization header), after auth, so a wrong key is a 401 even when throttled. */
export function rateLimit(app: App, x: Exchange): void {
  const limit = app.faults.rateLimit;
  if (x.isControl || !limit) return;
  const wait = limit.take(x.req.headers.authorization ?? "", app.clock.now());
  if (wait > 0) {
    throw new HttpError(429, "TooManyRequests", `Rate limit exceeded: ${limit.perSecond} requests per second per key.`, undefined, {
      "retry-after": String(wait),
    });
  }
}
