// Every failure the client can raise. One ApiError for HTTP answers, with a one-line
// subclass per status chosen by ApiError.from; transport failures, configuration and task
// outcomes are separate classes. Each has a stable `code`. None ever holds the API key:
// errors are built from the method, the path and the response body only.
import { STATUS_CODES } from "node:http";
import { stringifyJson } from "../../api/json";

/** A task record as last seen (the fields errors need). */
export interface SeenTask {
  id: string;
  state?: string;
  task_type?: string;
  created_resources?: Record<string, unknown> | null;
  [field: string]: unknown;
}

/** Base of every error this package throws; `code` is stable across versions. */
export class CimsError extends Error {
  readonly code: string = "CIMS_ERROR";
  /** The tasks of the operation that failed, when it had started any: their ids... */
  taskIds?: string[];
  /** ...and each one's record as last seen (a FINISHED sibling's created_resources included). */
  tasks?: SeenTask[];
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Settings are missing or invalid (API key, URL, numbers in `cims:` config). */
export class ConfigurationError extends CimsError {
  override readonly code = "CIMS_CONFIGURATION";
}

/**
 * The read that proves the key and the URL before a run's first call failed. `setting` is the
 * one to fix: the key was refused, the URL is unreachable or is no CIMS API, or the project
 * is not one the key can see.
 */
export class CredentialsCheckError extends CimsError {
  override readonly code = "CIMS_CREDENTIALS_CHECK";
  constructor(
    readonly setting: "apiKey" | "apiUrl" | "projectId",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message);
    if (options?.cause !== undefined) Object.defineProperty(this, "cause", { value: options.cause, configurable: true, writable: true });
  }
}

/** A path parameter that would not stay inside its path segment ("", ".", ".."). */
export class InvalidPathParameterError extends CimsError {
  override readonly code = "CIMS_INVALID_PATH_PARAMETER";
}

/** The request never got an HTTP answer: refused, reset, DNS, TLS... */
export class ConnectionError extends CimsError {
  override readonly code: string = "CIMS_CONNECTION";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly causeCode: string | undefined,
    detail: string,
  ) {
    super(`${method} ${path}: connection failed${causeCode ? ` (${causeCode})` : ""}: ${detail}`);
  }
}

/** No complete answer within the request timeout (connect or response). */
export class RequestTimeoutError extends ConnectionError {
  override readonly code = "CIMS_REQUEST_TIMEOUT";
}

export interface ApiErrorBody {
  exception_class?: unknown;
  message?: unknown;
  request_id?: unknown;
  invalid_fields?: unknown;
}

/** Server fields by name -> messages, as the service's 400 ValidationError reports them. */
export type InvalidFields = Record<string, string[]>;

export class ApiError extends CimsError {
  override readonly code: string = "CIMS_API";
  readonly exceptionClass: string | undefined;
  readonly serverMessage: string;
  readonly requestId: string | undefined;
  readonly invalidFields: InvalidFields | undefined;

  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    body: ApiErrorBody | string | undefined,
  ) {
    const parsed = typeof body === "object" && body !== null ? body : undefined;
    const exceptionClass = typeof parsed?.exception_class === "string" ? parsed.exception_class : undefined;
    const serverMessage = describeBody(parsed, body);
    const requestId = typeof parsed?.request_id === "string" ? parsed.request_id : undefined;
    const invalidFields = normalizeInvalidFields(parsed?.invalid_fields);
    super(formatMessage(status, method, path, exceptionClass, serverMessage, requestId, invalidFields));
    this.exceptionClass = exceptionClass;
    this.serverMessage = serverMessage;
    this.requestId = requestId;
    this.invalidFields = invalidFields;
  }

  /** The one place that picks the subclass for a status. */
  static from(status: number, method: string, path: string, body: ApiErrorBody | string | undefined): ApiError {
    const Class = errorClassFor(status);
    return new Class(status, method, path, body);
  }
}

export class BadRequestError extends ApiError {
  override readonly code = "CIMS_BAD_REQUEST";
}
export class AuthenticationError extends ApiError {
  override readonly code = "CIMS_UNAUTHENTICATED";
}
export class PermissionDeniedError extends ApiError {
  override readonly code = "CIMS_PERMISSION_DENIED";
}
export class NotFoundError extends ApiError {
  override readonly code = "CIMS_NOT_FOUND";
}
export class ConflictError extends ApiError {
  override readonly code = "CIMS_CONFLICT";
}
export class RateLimitError extends ApiError {
  override readonly code = "CIMS_RATE_LIMITED";
}
export class InternalServerError extends ApiError {
  override readonly code = "CIMS_SERVER_ERROR";
}

function errorClassFor(status: number): typeof ApiError {
  if (status === 400) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 409) return ConflictError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return InternalServerError;
  return ApiError;
}

function describeBody(parsed: ApiErrorBody | undefined, raw: ApiErrorBody | string | undefined): string {
  if (typeof parsed?.message === "string" && parsed.message !== "") return parsed.message;
  if (typeof raw === "string" && raw.trim() !== "") {
    const text = raw.trim().replace(/\s+/g, " ");
    return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} characters)` : text;
  }
  if (parsed) {
    // A JSON body without `message` (e.g. {"detail": ...}): show it rather than nothing.
    const text = stringifyJson(parsed);
    return text === "{}" ? "(no message in the error body)" : text.length > 300 ? `${text.slice(0, 300)}...` : text;
  }
  return "(empty body)";
}

function normalizeInvalidFields(value: unknown): InvalidFields | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: InvalidFields = {};
  for (const [field, messages] of Object.entries(value)) {
    out[field] = (Array.isArray(messages) ? messages : [messages]).map(String);
  }
  return out;
}

function formatMessage(
  status: number,
  method: string,
  path: string,
  exceptionClass: string | undefined,
  serverMessage: string,
  requestId: string | undefined,
  invalidFields: InvalidFields | undefined,
): string {
  const statusText = STATUS_CODES[status] ?? "Error";
  let message = `${method} ${path}: ${status} ${statusText}`;
  if (exceptionClass) message += ` (${exceptionClass})`;
  message += `: ${serverMessage}`;
  if (invalidFields && Object.keys(invalidFields).length > 0) message += `; invalid fields: ${formatInvalidFields(invalidFields)}`;
  if (requestId) message += ` [request_id=${requestId}]`;
  return message;
}

/** "name: must not be empty; cidr: not a network" */
export function formatInvalidFields(fields: InvalidFields): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
    .join("; ");
}

/** The service answered 2xx with something we cannot read (not JSON, or not the record's shape). */
export class InvalidResponseError extends CimsError {
  override readonly code = "CIMS_INVALID_RESPONSE";
}

/** A task ended in ERROR. */
export class TaskFailedError extends CimsError {
  override readonly code = "CIMS_TASK_FAILED";
  constructor(
    readonly taskId: string,
    readonly taskType: string | undefined,
    readonly serverError: string | undefined,
    /** Other tasks of the same operation that also ended in ERROR. */
    readonly alsoFailed = 0,
  ) {
    super(
      `task ${taskId}${taskType ? ` (${taskType})` : ""} failed: ${serverError?.trim() || "the service gave no error text"}` +
        (alsoFailed > 0 ? ` (and ${alsoFailed} more task(s) of this operation failed)` : ""),
    );
  }
}

/** Unfinished tasks as a message lists them: id, last state, the last read's failure. */
const taskList = (unfinished: ReadonlyArray<{ id: string; state: string | undefined; lastError?: string }>) =>
  unfinished.map((t) => `${t.id} (${t.state ?? "not seen yet"}${t.lastError ? `; last read failed: ${t.lastError}` : ""})`).join(", ");

/** Tasks still unfinished at the deadline. */
export class TaskTimeoutError extends CimsError {
  override readonly code = "CIMS_TASK_TIMEOUT";
  constructor(
    readonly unfinished: Array<{ id: string; state: string | undefined; lastError?: string }>,
    readonly timeoutSeconds: number,
    /** How to raise the limit that was reached (the limit that set the deadline names itself). */
    raise = "raise the limit with `pulumi config set cims:taskTimeoutSeconds <seconds>` or the resource's `timeouts` input",
  ) {
    super(`timed out after ${timeoutSeconds}s waiting for task(s) ${taskList(unfinished)}. The service may still finish them; ${raise}.`);
  }
}

/**
 * The wait stopped because the run was cancelled (the engine's Cancel: SIGINT or SIGTERM of
 * `pulumi up`); the service goes on with the tasks. Carries each task as last seen, so a
 * create whose task already names its record can have it recorded.
 */
export class CancelledError extends CimsError {
  override readonly code = "CIMS_CANCELLED";
  constructor(readonly unfinished: Array<{ id: string; state: string | undefined; lastError?: string }>) {
    super(`the run was cancelled while waiting for task(s) ${taskList(unfinished)}; the service goes on with them`);
  }
}
