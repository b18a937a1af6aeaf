// The HTTP client every resource calls: auth, exact-integer JSON, errors, retries, tasks.
//
// Retries are our own small loop, as a library's retry handler (undici's RetryAgent, say)
// (a) drops the response body when it gives up on a retryable status, so the final error
// would lose the service's message and request_id; (b) does not read `retry-after-ms`; (c)
// cannot tell "connection refused" (safe to repeat a POST) from "connection reset after
// sending" (not safe) in its method list; and (d) has no notion of our per-operation deadline
// or of retrying 409 until it. Transport, pooling and timeouts: transport.ts, on Node's http.
import { inspect } from "node:util";
import type { z } from "zod";
import { checked, ERROR_BODY, fits, PAGE, type Page, recordAnswer, TASK, TASK_IDS } from "./answers";
import { ApiError, type ApiErrorBody, CimsError, InvalidResponseError } from "./errors";
import { parseJson, stringifyJson } from "../../api/json";
import { apiPath, joinUrl } from "./path";
import { isLockConflict, type Outcome, retriesUntilDeadline, retryDelayMs, serverDelayMs, shouldRetry } from "./retry";
import type { Pacer } from "./pacer";
import type { TaskBoard, TaskScope } from "./task-board";
import { processClock as clock } from "./clock";
import { type Redactor, redactor } from "./redact";
import { exchange, transportFailure } from "./transport";
import { type Task, type WaitOptions, waitForTasks } from "./tasks";
import { VERSION } from "../version";

export interface ClientOptions {
  apiUrl: URL;
  apiKey: string;
  /** Retries per request (409 "locked" is retried until the deadline regardless). */
  maxRetries: number;
  connectTimeoutMs: number;
  /** Time to receive the response headers, and the longest pause while reading the body. */
  requestTimeoutMs: number;
  /** Task status path; the spec leaves its prefix open (`cims:taskPath`). */
  taskPath: string;
  /** Takes every request's turn: one per process, shared by every client of the key (pacer.ts). */
  pacer?: Pacer;
  /** Answers task looks from each scope's task list (task-board.ts): one per process, like the pacer. */
  taskBoard?: TaskBoard;
  /** Receives one line per retry, for the Pulumi log. Never given the key. */
  log?: (message: string) => void;
  /** Called before every request that may change something (all but GET). */
  beforeWrite?: () => void;
  /**
   * Awaited before every request; a rejection fails the request with its error. The provider
   * proves the key and the URL here before its first call (credentials.ts).
   */
  ready?: () => Promise<void>;
  /**
   * The run's cancel: once aborted, no retry starts and every task wait ends (after a last
   * look at its tasks). A request already sent is answered, not abandoned: a write whose
   * answer is lost leaves the service's state unknown.
   */
  cancel?: AbortSignal;
}

export interface RequestOptions {
  /** A list's value is the parameter repeated (`state=NEW&state=RUNNING`). */
  query?: Record<string, string | number | boolean | readonly string[] | undefined>;
  body?: unknown;
  /** Epoch ms after which no retry starts; defaults to now + 10 minutes. */
  deadline?: number;
  signal?: AbortSignal;
  /** Takes its turn before the requests already waiting for theirs (pacer.ts): a scope's task list, which many waits share. */
  ahead?: boolean;
  /**
   * Called as the request leaves, after its turn, at every attempt: a create's tasks were made
   * after the last call (task-board.ts), as the attempts before it were refused unacted (a POST
   * is retried only so, retry.ts).
   */
  sent?: () => void;
}

export { InvalidResponseError } from "./errors";

const DEFAULT_DEADLINE_MS = 10 * 60_000;
const ID_RECORD = recordAnswer();
const USER_AGENT = `pulumi-cims/${VERSION}`;

type AttemptResult =
  { ok: true; value: unknown } | { ok: false; error: CimsError; outcome: Outcome; header: (n: string) => string | undefined };

export class CimsClient {
  // A private field: invisible to JSON.stringify, util.inspect and structured clone.
  readonly #apiKey: string;
  readonly #options: Omit<ClientOptions, "apiKey">;
  /** Every message this client makes (errors it throws, lines it logs) goes through it. */
  readonly #redact: Redactor;

  constructor(options: ClientOptions) {
    const { apiKey, log, ...rest } = options;
    this.#apiKey = apiKey;
    this.#redact = redactor(apiKey);
    this.#options = { ...rest, log: log && ((line) => log(this.#redact.text(line))) };
  }

  get apiUrl(): URL {
    return this.#options.apiUrl;
  }

  /**
   * The answer's JSON (undefined for an empty body), unchecked: callers that read it use
   * `read` or one of the readers below, which check its shape first.
   */
  request(method: string, path: string, opts: RequestOptions = {}): Promise<unknown> {
    return this.redacted(this.send(method, path, opts));
  }

  /** The answer as `request` gives it, its failures not yet redacted. */
  private async send(method: string, path: string, opts: RequestOptions): Promise<unknown> {
    const deadline = opts.deadline ?? clock.now() + DEFAULT_DEADLINE_MS;
    const body = opts.body === undefined ? undefined : stringifyJson(opts.body);
    await this.#options.ready?.();
    if (method !== "GET") this.#options.beforeWrite?.();
    for (let retry = 0; ; retry++) {
      const pacer = this.#options.pacer;
      const turn = await pacer?.turn(opts.signal ?? this.#options.cancel, opts.ahead);
      opts.sent?.();
      const result = await this.attempt(method, path, body, opts, deadline).finally(() => pacer?.done());
      this.paced(result, turn);
      if (result.ok) return result.value;
      const { error, outcome } = result;
      const withinBudget = retry < this.#options.maxRetries || retriesUntilDeadline(outcome);
      if (!shouldRetry(method, outcome) || !withinBudget) throw error;
      const delay = retryDelayMs(retry, result.header, clock.now());
      // Keep the error's class (callers test for ConflictError etc.); say why we stopped.
      const giveUp = (why: string) => {
        error.message += ` (gave up after ${retry + 1} attempt(s): ${why})`;
        return error;
      };
      if (clock.now() + delay > deadline) throw giveUp("the operation's deadline is reached");
      if (this.#options.cancel?.aborted) throw giveUp("the run was cancelled");
      // A lock's message says which task holds the record: show it on the first retry's line.
      const why =
        outcome.kind === "status" && outcome.lock && retry === 0
          ? ` (${error instanceof ApiError ? error.serverMessage : error.message})`
          : "";
      this.#options.log?.(`${method} ${path}: ${describeOutcome(outcome)}${why}; retry ${retry + 1} in ${(delay / 1000).toFixed(1)}s`);
      const cancel = opts.signal ?? this.#options.cancel;
      await clock.sleep(delay, cancel).catch((err: unknown) => {
        throw this.#options.cancel?.aborted ? giveUp("the run was cancelled") : err;
      });
    }
  }

  /**
   * The answer, checked against `schema` and returned as parsed; an answer of another shape is
   * an InvalidResponseError naming the call (method and path template) and what was wrong.
   */
  read<S extends z.ZodType>(schema: S, method: string, path: string, opts: RequestOptions = {}): Promise<z.output<S>> {
    const call = { method, path, templates: [this.#options.taskPath] };
    return this.redacted(this.send(method, path, opts).then((answer) => checked(schema, answer, call)));
  }

  /** A record: a JSON object whose `key` (`id` unless said) is a string or an integer. */
  record(method: string, path: string, opts: RequestOptions = {}, key = "id"): Promise<Record<string, unknown>> {
    return this.read(key === "id" ? ID_RECORD : recordAnswer(key), method, path, opts);
  }

  /** One page of a list call: `{count, results: [records]}`. */
  page(path: string, opts: RequestOptions = {}): Promise<Page<Record<string, unknown>>> {
    return this.read(PAGE, "GET", path, opts);
  }

  /** The ids of the tasks an asynchronous operation started (`{tasks: [...]}`). */
  async taskIds(method: string, path: string, opts: RequestOptions = {}): Promise<string[]> {
    return (await this.read(TASK_IDS, method, path, opts)).tasks;
  }

  /** A task's record (`{id, state, ...}`). */
  task(id: string, opts: RequestOptions = {}): Promise<Task> {
    return this.read(TASK, "GET", apiPath(this.#options.taskPath, { task_id: id }), opts);
  }

  /**
   * Waits for every task to reach FINISHED; see tasks.ts. `scope`: where they run, so their task
   * list can be watched; `postedAt`: when the request that started them was sent (task-board.ts).
   */
  waitForTasks(ids: string[], opts: WaitOptions & { scope?: TaskScope; postedAt?: number }): Promise<Task[]> {
    const { scope, postedAt, ...rest } = opts;
    const board = this.#options.taskBoard;
    if (board && scope && postedAt !== undefined) for (const id of ids) board.expect(scope, id, postedAt);
    // The scope's task list answers the waits' looks, when there is a board and a scope to watch.
    const watched: Pick<WaitOptions, "listed" | "listShowsEnd" | "onEndListed" | "planLook" | "relookMs"> =
      board && scope
        ? {
            listed: (id, since, signal) => board.running(scope, id, since, signal),
            listShowsEnd: (id) => board.showsEnd(scope, id),
            onEndListed: (id, wake) => board.onEnded(scope, id, wake),
            planLook: (id, at) => board.plan(scope, id, at),
            relookMs: () => board.pacedGapMs(),
          }
        : {};
    const getTask = async (id: string, o: RequestOptions): Promise<Task> => {
      const task = await this.task(id, o);
      if (board && scope && typeof task === "object" && task !== null) board.read(scope, task);
      return task;
    };
    return this.redacted(waitForTasks(getTask, ids, { signal: this.#options.cancel, ...watched, ...rest }));
  }

  /** Tells the pacer what the service said: a 429 (and its Retry-After), or any other answer; `turn`: when the request was sent. */
  private paced(result: AttemptResult, turn: number | undefined): void {
    const pacer = this.#options.pacer;
    if (!pacer) return;
    if (result.ok) return pacer.accepted();
    const { outcome, header } = result;
    if (outcome.kind !== "status") return;
    if (outcome.status === 429) pacer.limited(serverDelayMs(header), turn);
    else pacer.accepted();
  }

  /** A call's failure with the key out of every string it carries; its answer as it came. */
  private redacted<T>(call: Promise<T>): Promise<T> {
    return call.catch((err: unknown) => {
      throw this.#redact.error(err);
    });
  }

  private async attempt(
    method: string,
    path: string,
    body: string | undefined,
    opts: RequestOptions,
    deadline: number,
  ): Promise<AttemptResult> {
    // An attempt started near the deadline must not run a full request timeout past it
    // (a task GET would otherwise report the deadline up to 120 s late); 1 s at the least.
    // Not for POST: a create that times out is never repeated and may leave a resource the
    // stack does not know, so it gets its full request timeout.
    const timeoutMs =
      method === "POST"
        ? this.#options.requestTimeoutMs
        : Math.min(this.#options.requestTimeoutMs, Math.max(1_000, deadline - clock.now()));
    const url = joinUrl(this.#options.apiUrl, path);
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(v)) for (const one of v) url.searchParams.append(k, String(one));
      else if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = {
      authorization: `apikey ${this.#apiKey}`,
      accept: "application/json",
      "user-agent": USER_AGENT,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      const { connectTimeoutMs } = this.#options;
      const { status, header, text } = await exchange({ method, url, headers, body, signal: opts.signal, connectTimeoutMs, timeoutMs });
      // Parsed as it came: a key's text in a record is the record's (redact.ts keeps it out of messages).
      if (status >= 200 && status < 300) return { ok: true, value: parseSuccess(method, path, text) };
      const error = ApiError.from(status, method, path, parseErrorBody(text));
      const lock = isLockConflict(status, error.serverMessage);
      const service = error.exceptionClass !== undefined;
      return { ok: false, error, outcome: { kind: "status", status, lock, service }, header };
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const failure = transportFailure(err, method, path);
      if (!failure) throw err;
      return { ok: false, error: failure.error, outcome: failure.outcome, header: () => undefined };
    }
  }

  toJSON(): Record<string, string> {
    return { apiUrl: this.#options.apiUrl.href, apiKey: "[redacted]" };
  }

  [inspect.custom](): string {
    return `CimsClient { apiUrl: '${this.#options.apiUrl.href}', apiKey: [redacted] }`;
  }
}

function parseSuccess(method: string, path: string, text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return parseJson(text);
  } catch {
    throw new InvalidResponseError(`${method} ${path}: the service answered with a body that is not JSON: ${text.slice(0, 200)}`);
  }
}

function parseErrorBody(text: string): ApiErrorBody | string | undefined {
  if (text.trim() === "") return undefined;
  try {
    const parsed = parseJson(text);
    return fits(ERROR_BODY, parsed) ? parsed : text;
  } catch {
    return text;
  }
}

function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case "status":
      return `HTTP ${outcome.status}`;
    case "connect-failed":
      return "could not connect";
    case "connection-lost":
      return "connection lost";
    case "response-timeout":
      return "no response in time";
  }
}
