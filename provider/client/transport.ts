// One keep-alive undici Pool per API origin, shared by every call in the provider process,
// and the mapping of undici's failures onto our error classes and retry outcomes.
import type { Pool } from "undici";
import { messageOf } from "../../api/messages";
import { ConnectionError, RequestTimeoutError } from "./errors";
import type { Outcome } from "./retry";

const pools = new Map<string, Pool>();

/** Pulumi runs resource operations in parallel; beyond this many sockets requests queue. */
const MAX_CONNECTIONS_PER_ORIGIN = 16;

export function poolFor(origin: string, connectTimeoutMs: number): Pool {
  const key = `${origin} ${connectTimeoutMs}`;
  let pool = pools.get(key);
  if (!pool) {
    // Loaded on first use: `pulumi preview` runs check()/diff() only, and undici takes
    // ~100 ms to load in every provider process.
    const undici: typeof import("undici") = require("undici");
    const UndiciPool = undici.Pool;
    pool = new UndiciPool(origin, { connections: MAX_CONNECTIONS_PER_ORIGIN, connect: { timeout: connectTimeoutMs } });
    pools.set(key, pool);
  }
  return pool;
}

/** Closes every pool (tests and short-lived tools; the provider process just exits). */
export async function closeAllPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}

/** Failures where the connection was never made, so the service cannot have seen the request. */
export const CONNECT_FAILED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"]);
const RESPONSE_TIMEOUT = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** Classifies a thrown transport error; returns undefined for errors that are not transport failures. */
export function transportFailure(err: unknown, method: string, path: string): { error: ConnectionError; outcome: Outcome } | undefined {
  const code = errorCode(err);
  if (code === undefined) return undefined;
  const detail = messageOf(err);
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return { error: new RequestTimeoutError(method, path, code, `connect timeout: ${detail}`), outcome: { kind: "connect-failed" } };
  }
  if (CONNECT_FAILED.has(code)) {
    return { error: new ConnectionError(method, path, code, detail), outcome: { kind: "connect-failed" } };
  }
  if (RESPONSE_TIMEOUT.has(code)) {
    return { error: new RequestTimeoutError(method, path, code, `no response in time: ${detail}`), outcome: { kind: "response-timeout" } };
  }
  return { error: new ConnectionError(method, path, code, detail), outcome: { kind: "connection-lost" } };
}

const UNDICI_TRANSPORT = new Set([
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

/**
 * The code of an answer that is not HTTP/1.1 when undici gives it none: its parser errors carry
 * their llhttp name (HPE_*) only sometimes (undici 7 leaves `code` unset on a response that
 * does not start as HTTP/1.1, e.g. an HTTP/2-only gRPC port's). Known by its name: undici's
 * class is not loaded before the first request (poolFor).
 */
const NOT_HTTP = "HTTPParserError";

/** Whether a transport failure's code says the server answered, but not in HTTP/1.1. */
export function answeredNotHttp(code: string | undefined): boolean {
  return code !== undefined && (code === NOT_HTTP || code.startsWith("HPE_"));
}

/** An OS errno (ECONNRESET), an undici transport code, or an HTTP parser error (HPE_*). */
function errorCode(err: unknown): string | undefined {
  const code = codeOf(err);
  if (code === undefined) return err instanceof Error && err.name === NOT_HTTP ? NOT_HTTP : undefined;
  if (code === "UND_ERR_SOCKET") {
    // undici wraps socket errors; the OS code underneath says more.
    const cause = typeof err === "object" && err !== null && "cause" in err ? codeOf(err.cause) : undefined;
    return cause !== undefined && /^E[A-Z]+$/.test(cause) ? cause : code;
  }
  if (UNDICI_TRANSPORT.has(code) || /^E[A-Z]+$/.test(code) || code.startsWith("HPE_")) return code;
  return undefined;
}

/** A thrown value's string `code`, if it has one. */
function codeOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
}
