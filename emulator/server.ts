// The emulator's HTTP server: auth, body limits, exact-integer JSON, faults, routing,
// error bodies in the service's shape, request log and metrics.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { controlRouter } from "./control";
import { HttpError } from "./errors";
import { Faults, type RequestFault } from "./faults";
import { Metrics } from "./metrics";
import { type Reply, type RequestContext, Router, type Services } from "./router";
import * as RESOURCES from "./collections";
import { Collections } from "./stores";
import { registerProjectRoutes } from "./routes/projects";
import { registerTaskRoutes } from "./routes/tasks";
import { parseLossless, readSeedFile, type Seed, Store, stringifyLossless } from "./state";
import { TaskEngine } from "./tasks";
import { messageOf } from "../api/errors";
import { LIST_PAGE_MAX } from "../api/paths";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** The key the emulator accepts: `Authorization: apikey <apiKey>`. */
  apiKey: string;
  /**
   * More keys it accepts, as an account holds several API tokens: a key rotation issues the
   * new one while the old one still works.
   */
  moreApiKeys?: string[];
  /** A seed object or the path of a seed JSON file. */
  seed?: Seed | string;
  /** Persist every change here (atomically) and continue from it on restart. */
  stateFile?: string;
  /** How long tasks take, NEW to FINISHED. Default 1000 ms. */
  taskDurationMs?: number;
  /** Receives one line per request (never the key). */
  log?: (line: string) => void;
  maxBodyBytes?: number;
  /**
   * The most records a list call answers per page, whatever `limit` asks (default 1000, the
   * public reference's maximum). A service may cap pages lower: clients must page by `count`.
   */
  pageSizeMax?: number;
  /**
   * Append one JSON line per API request to this file: method, path, route, status,
   * user-agent and the body as sent. (Our tests check every body the provider sends against
   * the vendor SDK's request types from it.)
   */
  requestLog?: string;
}

export interface RunningEmulator {
  url: string;
  port: number;
  store: Store;
  engine: TaskEngine;
  faults: Faults;
  metrics: Metrics;
  logs: string[];
  /** The request log's file, when there is one. */
  requestLog?: string;
  close(): Promise<void>;
}

const MAX_LOG_LINES = 5000;
const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
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

interface Target {
  pathname: string;
  search: string;
  searchParams: URLSearchParams;
}

/**
 * The request target. Only origin-form targets ("/path?query") are served: "//x", absolute
 * URLs and targets `new URL` cannot parse get an empty pathname (answered 400), instead of
 * throwing outside the handler's try, which would stop the whole server.
 */
function requestUrl(target: string | undefined): Target {
  const raw = target ?? "/";
  if (raw.startsWith("/") && !raw.startsWith("//")) {
    try {
      return new URL(raw, "http://emulator");
    } catch {
      // An unparseable target: answered below.
    }
  }
  return { pathname: "", search: "", searchParams: new URLSearchParams() };
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  if (!options.apiKey) throw new Error("startEmulator: apiKey is required");
  const collections = new Collections(Object.values(RESOURCES));
  const seed = typeof options.seed === "string" ? readSeedFile(options.seed, collections) : (options.seed ?? {});
  const store = new Store(collections, seed, options.stateFile);
  const engine = new TaskEngine(store, options.taskDurationMs ?? 1000);
  const faults = new Faults();
  const metrics = new Metrics();
  const logs: string[] = [];
  const services: Services = { store, engine, faults };
  const api = new Router();
  // Each resource's routes (./collections, one line per resource), then the API's own.
  for (const resource of Object.values(RESOURCES)) resource.routes(api, services);
  for (const register of [registerTaskRoutes, registerProjectRoutes]) register(api, services);
  const control = controlRouter({ store, engine, faults, metrics, logs });
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const apiKeys = new Set([options.apiKey, ...(options.moreApiKeys ?? [])]);

  const log = (line: string) => {
    logs.push(line);
    if (logs.length > MAX_LOG_LINES) logs.splice(0, logs.length - MAX_LOG_LINES);
    options.log?.(line);
  };

  const server = http.createServer((req, res) => {
    const started = Date.now();
    const requestId = randomUUID();
    const method = req.method ?? "GET";
    const url = requestUrl(req.url);
    const isControl = url.pathname.startsWith("/__emulator/");
    let routeName = "(unmatched)";
    let requestBody: unknown;
    const finish = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      if (options.requestLog && !isControl) {
        const line = {
          method,
          path: url.pathname,
          route: routeName,
          status,
          user_agent: req.headers["user-agent"] ?? null,
          body: requestBody,
        };
        fs.appendFileSync(options.requestLog, `${stringifyLossless(line)}\n`);
      }
      const html = typeof body === "string";
      const text = body === undefined ? "" : html ? body : stringifyLossless(body);
      const type = html ? "text/html" : "application/json";
      res.writeHead(status, { "x-request-id": requestId, ...(text ? { "content-type": type } : {}), ...headers });
      res.end(text);
      if (!isControl) metrics.request(method, routeName, status);
      log(`${method} ${url.pathname}${url.search} ${status} ${Date.now() - started}ms`);
    };
    const fail = (err: HttpError) =>
      finish(
        err.status,
        {
          exception_class: err.exceptionClass,
          message: err.message,
          request_id: requestId,
          ...(err.invalidFields ? { invalid_fields: err.invalidFields } : {}),
        },
        err.headers,
      );

    void (async () => {
      try {
        if (isControl && !LOOPBACK.has(req.socket.remoteAddress ?? ""))
          throw new HttpError(403, "PermissionDenied", "The control API answers on loopback only.");
        if (url.pathname === "") throw new HttpError(400, "ValidationError", "The request target is not a valid path.");
        // Matched first, so injected faults and 401s are counted under their route in the metrics.
        const match = (isControl ? control : api).match(method, url.pathname);
        if (match && !("methodNotAllowed" in match)) routeName = match.route.pattern;
        // The body is read from the start, as a server does: a request delayed by a fault is
        // still acted on after its caller gave up (the "did it happen?" case).
        const bodyRead = readBody(req, maxBody);
        bodyRead.catch(() => undefined); // awaited below, unless auth or a fault answers first
        const fault = isControl ? undefined : faults.forRequest(method, url.pathname);
        if (fault && (await applyFault(fault, req, res, fail, finish))) {
          log(`${method} ${url.pathname}${url.search} fault:${fault.action} ${Date.now() - started}ms`);
          return;
        }
        if (!isControl) {
          authenticate(req.headers.authorization, apiKeys);
          const wait = faults.rateLimit?.take(req.headers.authorization ?? "", Date.now()) ?? 0;
          if (wait > 0) {
            const limit = faults.rateLimit!.perSecond;
            throw new HttpError(429, "TooManyRequests", `Rate limit exceeded: ${limit} requests per second per key.`, undefined, {
              "retry-after": String(wait),
            });
          }
        }
        const body = await bodyRead;
        requestBody = body;
        engine.advance(Date.now());
        if (!match) throw new HttpError(404, "NotFoundError", `No endpoint ${method} ${url.pathname}.`);
        if ("methodNotAllowed" in match) {
          throw new HttpError(
            405,
            "MethodNotAllowed",
            `Method ${method} not allowed here; allowed: ${match.methodNotAllowed.join(", ")}.`,
            undefined,
            {
              allow: match.methodNotAllowed.join(", "),
            },
          );
        }
        const ctx: RequestContext = {
          method,
          path: url.pathname,
          query: url.searchParams,
          params: match.params,
          body,
          now: Date.now(),
          requestId,
          pageSizeMax: options.pageSizeMax ?? LIST_PAGE_MAX,
        };
        const reply: Reply = match.route.handler(ctx);
        if (fault?.action === "close-after") {
          // The service acted, but the caller never hears back.
          log(`${method} ${url.pathname}${url.search} ${reply.status} then connection dropped ${Date.now() - started}ms`);
          req.socket.destroy();
          return;
        }
        if (fault?.action === "status-after") {
          // The service acted; a gateway in front of it answers the caller with its own error.
          log(`${method} ${url.pathname}${url.search} ${reply.status} then answered ${String(fault.status)}`);
          answerFault(fault, fail, finish);
          return;
        }
        finish(reply.status, reply.body);
      } catch (err) {
        if (err instanceof HttpError) return fail(err);
        log(`${method} ${url.pathname} internal error: ${(err instanceof Error ? err.stack : undefined) ?? String(err)}`);
        fail(new HttpError(500, "InternalServerError", "The emulator failed on this request; see its log."));
      }
    })();
  });
  server.on("connection", (socket) => socket.once("close", metrics.connection()));
  // Large bodies are refused by readBody; keep slow clients from holding sockets forever.
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    port,
    store,
    engine,
    faults,
    metrics,
    logs,
    requestLog: options.requestLog,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function authenticate(header: string | undefined, apiKeys: ReadonlySet<string>): void {
  if (header === undefined || header === "") {
    throw new HttpError(401, "NotAuthenticated", "Authentication credentials were not provided.");
  }
  // `<scheme> <key>`: the scheme is the spec's `apikey` in any case (RFC 9110, 11.1: schemes
  // are case-insensitive; the vendor's SDK sends `APIKey`), the key exactly.
  const space = header.indexOf(" ");
  if (space < 0 || header.slice(0, space).toLowerCase() !== "apikey" || !apiKeys.has(header.slice(space + 1))) {
    // The service's words for a wrong key are those for a missing one; only the class differs.
    throw new HttpError(401, "AuthenticationFailed", "Authentication credentials were not provided.");
  }
}

type Finish = (status: number, body?: unknown, headers?: Record<string, string>) => void;

/** Applies a request fault; true when the request is fully handled by it. */
async function applyFault(
  fault: RequestFault,
  req: http.IncomingMessage,
  _res: http.ServerResponse,
  fail: (e: HttpError) => void,
  finish: Finish,
): Promise<boolean> {
  switch (fault.action) {
    case "close":
      req.socket.destroy();
      return true;
    case "delay":
      await new Promise((r) => setTimeout(r, fault.delayMs ?? 0));
      return false;
    case "close-after":
    case "status-after":
      return false;
    case "status":
      // A gateway may answer late (its own timeout) as well as at once.
      if (fault.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      answerFault(fault, fail, finish);
      return true;
  }
}

/** A status fault's answer: the service's JSON error, or a gateway's HTML page (`proxy`). */
function answerFault(fault: RequestFault, fail: (e: HttpError) => void, finish: Finish): void {
  const status = fault.status ?? 500;
  const headers: Record<string, string> = fault.retryAfter ? { "retry-after": String(fault.retryAfter) } : {};
  if (fault.proxy) {
    const title = `${status} ${http.STATUS_CODES[status] ?? "Error"}`;
    finish(status, `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center></body></html>\n`, headers);
    return;
  }
  const message = typeof fault.body?.message === "string" ? fault.body.message : `Injected fault: ${status}.`;
  fail(new HttpError(status, EXCEPTION_BY_STATUS[status] ?? "APIException", message, undefined, headers));
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
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return resolve(undefined);
      const type = req.headers["content-type"] ?? "";
      if (!type.toLowerCase().startsWith("application/json")) {
        return reject(new HttpError(415, "UnsupportedMediaType", `Unsupported media type "${type}" in request; use application/json.`));
      }
      try {
        resolve(parseLossless(text));
      } catch (err) {
        reject(new HttpError(400, "ParseError", `JSON parse error - ${messageOf(err)}`));
      }
    });
  });
}
