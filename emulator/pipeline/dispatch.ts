// The handler's turn: tasks are moved on to the request's time first, so the handler sees
// the store as the service would at that moment.
import type { App } from "../app";
import { HttpError } from "../http-errors";
import type { Match, Reply, RequestContext } from "../router";
import type { Exchange } from "./exchange";

export function dispatch(app: App, x: Exchange, match: Match): Reply {
  const now = app.clock.now();
  app.engine.advance(now);
  if (!match) throw new HttpError(404, "NotFoundError", `No endpoint ${x.method} ${x.url.pathname}.`);
  if ("methodNotAllowed" in match) {
    const allowed = match.methodNotAllowed.join(", ");
    throw new HttpError(405, "MethodNotAllowed", `Method ${x.method} not allowed here; allowed: ${allowed}.`, undefined, {
      allow: allowed,
    });
  }
  const ctx: RequestContext = {
    method: x.method,
    path: x.url.pathname,
    query: x.url.searchParams,
    params: match.params,
    body: x.requestBody,
    now,
    requestId: x.requestId,
    pageSizeMax: app.pageSizeMax,
  };
  return match.route.handler(ctx);
}
