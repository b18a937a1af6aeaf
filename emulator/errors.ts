// Errors the emulator answers with, in the service's error-body shape:
// {exception_class, message, request_id, invalid_fields?}.
export type InvalidFields = Record<string, string[]>;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly exceptionClass: string,
    message: string,
    readonly invalidFields?: InvalidFields,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const validationError = (invalidFields: InvalidFields) =>
  new HttpError(400, "ValidationError", "Validation error: see invalid_fields.", invalidFields);

export const notFound = (what: string, id: unknown) => new HttpError(404, "NotFoundError", `${what} ${String(id)} not found.`);

export const locked = (what: string, id: unknown, taskId: string) =>
  new HttpError(409, "ConflictError", `${what} ${String(id)} is locked by running task ${taskId}. Try again when it has finished.`);
