// The API client layer: what resources import.
export * from "./errors";
export { CimsClient, InvalidResponseError, type ClientOptions, type RequestOptions } from "./http";
export { parseJson, stringifyJson } from "../../api/json";
export { apiPath } from "./path";
export { closeAllPools } from "./transport";
export { listAll, type Page } from "./list";
export { DurationHints } from "./task-hints";
export { CANCEL_LOOK_MS, nextDelay, waitForTasks, systemClock, type Task, type TaskProgress, type WaitOptions, type Clock } from "./tasks";
