// Which handler a request is for. Matched first, so injected faults and 401s are counted
// under their route in the metrics; a missing route or method is answered only at dispatch,
// after auth, as the service does (no key: 401 whatever the path).
import type { App } from "../app";
import { HttpError } from "../http-errors";
import type { Match } from "../router";
import type { Exchange } from "./exchange";

export function route(app: App, x: Exchange): Match {
  if (x.url.pathname === "") throw new HttpError(400, "ValidationError", "The request target is not a valid path.");
  const match = (x.isControl ? app.control : app.api).match(x.method, x.url.pathname);
  if (match && !("methodNotAllowed" in match)) x.routeName = match.route.pattern;
  return match;
}
