// The one cheap authenticated read that proves the key and the URL before a run's first call.
// Without it a wrong or expired key, or a URL that is not the service, passes every
// `pulumi preview` (check() and diff() need no request) and fails only at the `up` that
// follows. The read is the project's record when the config names a project (it also proves
// the project is one the key can see), else one record of the key's project list; both need
// no other scope and write nothing. It has a short budget of its own: a URL that never
// answers fails the preview within seconds, not after the request retries of a real call.
import { z } from "zod";
import { stringifyJson } from "../../api/json";
import { Project } from "../../api/contract/project";
import {
  ApiError,
  AuthenticationError,
  CimsError,
  ConnectionError,
  CredentialsCheckError,
  InvalidResponseError,
  NotFoundError,
  PermissionDeniedError,
} from "./errors";
import { fits } from "./answers";
import { CimsClient, type ClientOptions } from "./http";
import { apiPath } from "./path";
import { answeredNotHttp } from "./transport";
import { processClock as clock } from "./clock";

/** The probe's own limits (the configured ones apply when lower): its worst case stays under 30 s. */
export const PROBE_BUDGET = { maxRetries: 2, connectTimeoutMs: 5_000, requestTimeoutMs: 8_000, deadlineMs: 12_000 } as const;

export interface ProbeOptions extends Omit<ClientOptions, "ready" | "beforeWrite"> {
  /** The configured default project (`cims:projectId`): its record is what is read. */
  projectId?: number;
}

/** The read that proves the key: the project's record, else the first of the key's projects. */
export function probeRequest(projectId?: number): { path: string; query?: Record<string, number> } {
  return projectId === undefined
    ? { path: Project.paths.collection, query: { limit: 1 } }
    : { path: apiPath(Project.paths.item, { project_id: projectId }) };
}

/** Reads once; resolves when the key and the URL are proven, else rejects with a CredentialsCheckError. */
export async function proveCredentials(options: ProbeOptions): Promise<void> {
  const { projectId, ...rest } = options;
  const client = new CimsClient({
    ...rest,
    apiKey: options.apiKey,
    maxRetries: Math.min(options.maxRetries, PROBE_BUDGET.maxRetries),
    connectTimeoutMs: Math.min(options.connectTimeoutMs, PROBE_BUDGET.connectTimeoutMs),
    requestTimeoutMs: Math.min(options.requestTimeoutMs, PROBE_BUDGET.requestTimeoutMs),
  });
  const { path, query } = probeRequest(projectId);
  let answer: unknown;
  try {
    answer = await client.request("GET", path, { query, deadline: clock.now() + PROBE_BUDGET.deadlineMs });
  } catch (err) {
    throw probeFailure(err, options.apiUrl, projectId);
  }
  const wrong = unexpectedAnswer(answer, projectId);
  if (wrong) throw notCims(options.apiUrl, `GET ${path}: ${wrong}`);
}

const KEY_ADVICE =
  "set a valid key with `pulumi config set --secret cims:apiKey <key>` or the CIMS_API_KEY environment variable. Nothing was changed";
const URL_ADVICE =
  "set the service's base URL with `pulumi config set cims:apiUrl https://...` or the CIMS_API_URL environment variable. Nothing was changed";

function notCims(apiUrl: URL, detail: string, cause?: unknown): CredentialsCheckError {
  return new CredentialsCheckError("apiUrl", `cims:apiUrl ${apiUrl.href} does not answer as a CIMS API (${detail}): ${URL_ADVICE}`, {
    cause,
  });
}

/** What the probe's failure says to fix: the key, the URL or the project. Other errors pass unchanged. */
export function probeFailure(err: unknown, apiUrl: URL, projectId?: number): unknown {
  if (!(err instanceof CimsError) || err instanceof CredentialsCheckError) return err;
  const url = apiUrl.href;
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError) {
    // Only the service's own JSON error says for sure that the key is at fault; a gateway's
    // 401/403 page may mean the URL is not the service at all.
    const unsure =
      err.exceptionClass === undefined
        ? " (the answer is not the CIMS API's JSON error: if cims:apiUrl is not the service, fix it too)"
        : "";
    return new CredentialsCheckError(
      "apiKey",
      `cims:apiKey was refused by the CIMS API at ${url} (${err.message})${unsure}: ${KEY_ADVICE}`,
      { cause: err },
    );
  }
  if (err instanceof NotFoundError && err.exceptionClass === "NotFoundError" && projectId !== undefined) {
    return new CredentialsCheckError(
      "projectId",
      `cims:projectId ${projectId} names no project the key can see at ${url} (${err.message}): set one of the key's projects with ` +
        "`pulumi config set cims:projectId <id>` or the CIMS_PROJECT_ID environment variable. Nothing was changed",
      { cause: err },
    );
  }
  if (err instanceof ConnectionError && answeredNotHttp(err.causeCode)) return notCims(apiUrl, err.message, err);
  if (err instanceof ConnectionError) {
    return new CredentialsCheckError(
      "apiUrl",
      `cims:apiUrl ${url} could not be reached (${err.message}): check that the service is reachable from here, or ${URL_ADVICE}`,
      { cause: err },
    );
  }
  if (err instanceof ApiError && err.exceptionClass !== undefined && (err.status >= 500 || err.status === 429)) {
    return new CredentialsCheckError(
      "apiUrl",
      `the CIMS API at ${url} (cims:apiUrl) could not prove the key: it answered ${err.message}. Try again when the service answers; nothing was changed`,
      { cause: err },
    );
  }
  if (err instanceof ApiError || err instanceof InvalidResponseError) return notCims(apiUrl, err.message, err);
  return err;
}

const PROJECT = z.looseObject({ id: z.union([z.int(), z.bigint()]), name: z.string() });
const PROJECTS = z.looseObject({ count: z.int(), results: z.array(PROJECT) });

/** Why a 2xx answer is not the service's (a project record, or a page of them); undefined when it is. */
export function unexpectedAnswer(answer: unknown, projectId?: number): string | undefined {
  const shown = answer === undefined ? "an empty body" : stringifyJson(answer).slice(0, 200);
  if (projectId !== undefined) {
    if (!fits(PROJECT, answer)) return `200 with ${shown}, not a project record`;
    if (Number(answer.id) !== projectId) return `200 with project ${String(answer.id)} for project ${projectId}`;
    return undefined;
  }
  if (!fits(PROJECTS, answer)) {
    return `200 with ${shown}, not a page of project records`;
  }
  return undefined;
}
