// Builds request paths. Each parameter is percent-encoded into exactly one segment, and
// "", "." and ".." are refused: encodeURIComponent leaves dots alone, so an id of ".."
// would otherwise climb out of its segment once a server or proxy normalises the path.
import { InvalidPathParameterError } from "./errors";

export type PathParam = string | number | bigint;

/** `apiPath("/cloud/v1/subnets/{project_id}/{region_id}", {project_id: 1, region_id: 2})` */
export function apiPath(template: string, params: Record<string, PathParam> = {}): string {
  return template.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    if (!(name in params)) throw new InvalidPathParameterError(`path ${template} needs a value for {${name}}`);
    return encodeSegment(name, params[name]);
  });
}

function encodeSegment(name: string, value: PathParam): string {
  const text = String(value);
  if (text === "" || text === "." || text === "..") {
    throw new InvalidPathParameterError(`${name} must not be empty, "." or ".." (got ${JSON.stringify(text)})`);
  }
  return encodeURIComponent(text);
}

/** Joins the API base URL (which may carry a path prefix) and a request path without "//". */
export function joinUrl(baseUrl: URL, path: string): URL {
  const prefix = baseUrl.pathname.replace(/\/+$/, "");
  const url = new URL(baseUrl.origin);
  url.pathname = `${prefix}/${path.replace(/^\/+/, "")}`;
  return url;
}
