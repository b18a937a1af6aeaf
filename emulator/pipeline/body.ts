// The request body: size-limited, JSON only, integers kept exact (quota numbers are int64).
import type * as http from "node:http";
import type { App } from "../app";
import { HttpError } from "../http-errors";
import { parseJson } from "../../api/json";
import { messageOf } from "../../api/messages";
import type { Exchange } from "./exchange";

/**
 * Starts reading the body at once, as a server does: a request delayed by a fault is still
 * acted on after its caller gave up (the "did it happen?" case). Awaited after auth, unless a
 * fault or an error answers first: its rejection is then nobody's, so it is caught here.
 */
export function startBody(app: App, x: Exchange): Promise<unknown> {
  const body = readBody(x.req, app.maxBodyBytes);
  body.catch(() => undefined);
  return body;
}

function readBody(req: http.IncomingMessage, limit: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) {
      req.resume();
      return reject(new HttpError(413, "RequestEntityTooLarge", `Request body of ${declared} bytes is over the ${limit}-byte limit.`));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => {
      if (tooLarge) return reject(new HttpError(413, "RequestEntityTooLarge", `Request body is over the ${limit}-byte limit.`));
      try {
        resolve(parseBody(Buffer.concat(chunks).toString("utf8"), req.headers["content-type"] ?? ""));
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** An empty body is none; anything else must be JSON, said so by its media type. */
function parseBody(text: string, type: string): unknown {
  if (text.trim() === "") return undefined;
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new HttpError(415, "UnsupportedMediaType", `Unsupported media type "${type}" in request; use application/json.`);
  }
  try {
    return parseJson(text);
  } catch (err) {
    throw new HttpError(400, "ParseError", `JSON parse error - ${messageOf(err)}`);
  }
}
