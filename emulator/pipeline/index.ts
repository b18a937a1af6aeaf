// The emulator's answer to one request, stage by stage. Each stage is a function of its own
// file here; an error any of them throws (an HttpError in the service's shape, or a bug) is
// answered by the last. The order is the service's: a control call off loopback is refused
// before anything else; a fault hits a request before auth (a gateway's fault knows no keys);
// a wrong key is a 401 before a throttle's 429 and before a 404 for a path that does not exist.
import type { App } from "../app";
import { authenticate, checkLoopback, rateLimit } from "./access";
import { startBody } from "./body";
import { dispatch } from "./dispatch";
import type { Exchange } from "./exchange";
import { drawFault, faultAfter, faultBefore } from "./fault";
import { route } from "./route";
import { reply, replyFailure } from "./reply";

export { openExchange } from "./exchange";

export async function handleRequest(app: App, x: Exchange): Promise<void> {
  try {
    checkLoopback(x);
    const match = route(app, x);
    const body = startBody(app, x);
    const fault = drawFault(app, x);
    if (fault && (await faultBefore(app, x, fault))) return;
    authenticate(app, x);
    rateLimit(app, x);
    x.requestBody = await body;
    const answer = dispatch(app, x, match);
    if (faultAfter(app, x, fault, answer)) return;
    reply(app, x, answer.status, answer.body);
  } catch (err) {
    replyFailure(app, x, err);
  }
}
