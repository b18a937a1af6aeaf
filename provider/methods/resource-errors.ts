// The errors the provider methods throw, each built once with its final message: a client
// error seen in a resource's context is a new error of the same class (its code, status and
// task records kept) whose message names the resource, never the old one rewritten.
import { camelPath } from "../../api/names";
import { BadRequestError, CimsError, formatInvalidFields } from "../client/errors";

/**
 * Thrown when the service created the resource but a later step failed: Pulumi records
 * the resource (id and properties) as created-but-not-initialised instead of losing it.
 */
export class PartialCreateError extends CimsError {
  override readonly code = "CIMS_PARTIAL_CREATE";
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[] = [message],
  ) {
    super(message);
  }
}

/** The same error (class, fields, cause) with another message. */
function copyWith<E extends Error>(err: E, message: string): E {
  const copy = Object.create(Object.getPrototypeOf(err) as object) as E;
  Object.assign(copy, err);
  Object.defineProperty(copy, "message", { value: message, writable: true, configurable: true });
  Object.defineProperty(copy, "cause", { value: err, writable: true, configurable: true });
  copy.stack = `${err.name}: ${message}\n${(err.stack ?? "").split("\n").slice(1).join("\n")}`;
  return copy;
}

/**
 * An error seen while acting on `what` (`Subnet "app"`), as the user reads it: the resource
 * named first; a 400's invalid fields in the program's camelCase; `advice` after the cause.
 * Errors that name their resource already (a partial create) are left as they are.
 */
export function inContext(what: string, err: unknown, advice?: string): unknown {
  if (err instanceof PartialCreateError || !(err instanceof Error)) return err;
  const cause = err.message.startsWith(what) ? err.message.slice(what.length).replace(/^: /, "") : err.message;
  let message = `${what}: ${cause}`;
  if (err instanceof BadRequestError && err.invalidFields) {
    const camel = Object.fromEntries(Object.entries(err.invalidFields).map(([k, v]) => [camelPath(k), v]));
    message = `${what}: the service rejected the request: ${formatInvalidFields(camel)} (${cause})`;
  }
  if (advice) message += `. ${advice}`;
  return err instanceof CimsError ? copyWith(err, message) : copyWith(new Error(message, { cause: err }), message);
}
