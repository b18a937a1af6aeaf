/** Per-operation deadlines in seconds; default `cims:taskTimeoutSeconds` (1800). Pulumi's customTimeouts never reach dynamic providers. */
export interface Timeouts {
  create?: number;
  update?: number;
  delete?: number;
}
