// One keep-alive agent per API origin, shared by every call in the provider process, one
// request's exchange through it with its timeouts, and the mapping of transport failures onto
// our error classes and retry outcomes.
//
// Node's own http/https rather than an HTTP library: the client needs keep-alive, a connect
// timeout, a timeout per attempt and a cancel, which core gives, and in the engine's
// dynamic-provider host undici cost about a fifth of the provider's peak RSS (its modules, about
// 19 MB, and its WebAssembly HTTP parser, 6 MB more), where core's parser is native and its
// modules are part of Node.
import * as http from "node:http";
import * as https from "node:https";
import { messageOf } from "../../api/messages";
import { ConnectionError, RequestTimeoutError } from "./errors";
import type { Outcome } from "./retry";

/** Pulumi runs resource operations in parallel; beyond this many sockets requests queue. */
const MAX_CONNECTIONS_PER_ORIGIN = 16;
/**
 * How long an idle socket is kept, at most (a server's `Keep-Alive: timeout=N` hint shortens
 * it to a second under N): a request sent on a socket the server is closing fails, and a POST
 * that failed so is not repeated. Node applies the hint only under a timeout of the agent's own.
 */
const IDLE_SOCKET_MS = 4_000;

/**
 * The codes of our own transport failures. They keep the names the client's messages have
 * always shown (undici's, its earlier transport), so a message a user searched for still reads
 * the same.
 */
export const CONNECT_TIMEOUT = "UND_ERR_CONNECT_TIMEOUT";
const HEADERS_TIMEOUT = "UND_ERR_HEADERS_TIMEOUT";
const BODY_TIMEOUT = "UND_ERR_BODY_TIMEOUT";

const agents = new Map<string, http.Agent>();

function agentFor(url: URL): http.Agent {
  let agent = agents.get(url.origin);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: MAX_CONNECTIONS_PER_ORIGIN, timeout: IDLE_SOCKET_MS };
    agent = url.protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
    agents.set(url.origin, agent);
  }
  return agent;
}

/** Closes every pooled socket (tests and short-lived tools; the provider process just exits). */
export async function closeAllPools(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  for (const agent of all) agent.destroy();
}

export interface Exchange {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  connectTimeoutMs: number;
  /** Time to receive the response headers, and the longest pause while reading the body. */
  timeoutMs: number;
}

export interface Answer {
  status: number;
  /** A response header's (first) value. */
  header: (name: string) => string | undefined;
  text: string;
}

/** One request and its whole answer; a transport failure rejects with an error that has a `code`. */
export function exchange(x: Exchange): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const send = x.url.protocol === "https:" ? https.request : http.request;
    const req = send(x.url, { method: x.method, headers: x.headers, agent: agentFor(x.url), signal: x.signal });
    let timer: NodeJS.Timeout | undefined;
    const settle = (done: () => void) => {
      clearTimeout(timer);
      done();
    };
    /** From now, fail with `code` unless something comes within `ms`. */
    const expect = (code: string, what: string, ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => req.destroy(coded(code, `${what} within ${ms} ms`)), ms);
    };
    const awaitHeaders = () => expect(HEADERS_TIMEOUT, "no response headers", x.timeoutMs);
    req.on("socket", (socket) => {
      if (!socket.connecting) return awaitHeaders();
      expect(CONNECT_TIMEOUT, "no connection", x.connectTimeoutMs);
      socket.once("connect", awaitHeaders);
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      const awaitBody = () => expect(BODY_TIMEOUT, "no more of the response body", x.timeoutMs);
      awaitBody();
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        awaitBody();
      });
      res.on("end", () => {
        const header = (name: string) => {
          const v = res.headers[name];
          return Array.isArray(v) ? v[0] : v;
        };
        settle(() => resolve({ status: res.statusCode ?? 0, header, text: Buffer.concat(chunks).toString("utf8") }));
      });
      res.on("error", (err) => settle(() => reject(err)));
      // A connection closed before the body's end: the request may have been acted on.
      res.on("close", () => {
        if (!res.complete) settle(() => reject(coded("ECONNRESET", "the connection closed before the response's end")));
      });
    });
    req.on("error", (err) => settle(() => reject(err)));
    req.end(x.body);
  });
}

const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

/** Failures where the connection was never made, so the service cannot have seen the request. */
export const CONNECT_FAILED = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", CONNECT_TIMEOUT]);
const RESPONSE_TIMEOUT = new Set([HEADERS_TIMEOUT, BODY_TIMEOUT]);

/** Classifies a thrown transport error; returns undefined for errors that are not transport failures. */
export function transportFailure(err: unknown, method: string, path: string): { error: ConnectionError; outcome: Outcome } | undefined {
  const code = errorCode(err);
  if (code === undefined) return undefined;
  const detail = messageOf(err);
  if (code === CONNECT_TIMEOUT) {
    return { error: new RequestTimeoutError(method, path, code, `connect timeout: ${detail}`), outcome: { kind: "connect-failed" } };
  }
  if (CONNECT_FAILED.has(code)) {
    return { error: new ConnectionError(method, path, code, detail), outcome: { kind: "connect-failed" } };
  }
  if (RESPONSE_TIMEOUT.has(code)) {
    return { error: new RequestTimeoutError(method, path, code, `no response in time: ${detail}`), outcome: { kind: "response-timeout" } };
  }
  if (answeredNotHttp(code)) {
    const error = new ConnectionError(method, path, code, `the answer does not match the HTTP/1.1 protocol (${detail})`);
    return { error, outcome: { kind: "connection-lost" } };
  }
  return { error: new ConnectionError(method, path, code, detail), outcome: { kind: "connection-lost" } };
}

/** Whether a transport failure's code says the server answered, but not in HTTP/1.1 (Node's parser errors are HPE_*). */
export function answeredNotHttp(code: string | undefined): boolean {
  return code !== undefined && code.startsWith("HPE_");
}

/** An OS errno (ECONNRESET), one of our timeouts, or an HTTP parser error (HPE_*). */
function errorCode(err: unknown): string | undefined {
  const code = typeof err === "object" && err !== null && "code" in err && typeof err.code === "string" ? err.code : undefined;
  if (code === undefined) return undefined;
  if (code === CONNECT_TIMEOUT || RESPONSE_TIMEOUT.has(code) || /^E[A-Z]+$/.test(code) || code.startsWith("HPE_")) return code;
  return undefined;
}
