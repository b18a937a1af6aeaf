/**
 * Per-operation deadlines in seconds; default `cims:taskTimeoutSeconds` (1800), which each one
 * overrides, up or down. On the plugin face (`cims.native`, YAML) Pulumi's `customTimeouts`
 * option bounds the same waits, and given both the smaller wins. Pulumi's Node.js dynamic
 * provider never passes `customTimeouts` on, so on the dynamic face only these count.
 */
export interface Timeouts {
  create?: number;
  update?: number;
  delete?: number;
}
