// QuotaThreshold as a program sees it: its arguments and the resource class. The provider
// methods are in ../kinds/quota-threshold.ts.
import type * as pulumi from "@pulumi/pulumi";
import { QuotaMessage as QuotaMessageContract, QuotaThreshold as QuotaThresholdContract } from "../../api/contract";
import type { ObjectOf } from "../../api/contract";
import { outputKeys, withOutputs } from "./outputs";
import { quotaThresholdShim } from "./shim";

/** A quota entry: limit and usage, as decimal strings in outputs (int64); inputs may be numbers or strings. */
export interface QuotaEntry {
  limit: string;
  usage: string;
}

/**
 * The last quota message, as a program gives it: members are `<camelCaseBase>Limit` /
 * `<camelCaseBase>Usage` (e.g. `keypairCountLimit`) holding `{limit, usage}`; give numbers
 * above 2^53 as decimal strings.
 */
export type QuotaMessageInput = ObjectOf<typeof QuotaMessageContract.fields>;

/** The last quota message as outputs show it: every quota number an exact decimal string. */
export interface QuotaMessage {
  globalQuotas: Record<string, QuotaEntry>;
  regionalQuotas: Array<{ regionId: number; regionName: string } & Record<string, QuotaEntry | number | string>>;
}

export interface QuotaThresholdArgs {
  /** Client id (integer). Changing it replaces. */
  readonly clientId: pulumi.Input<number>;
  /** Notification threshold, percent, an integer from 60 to 100. Updates in place. */
  readonly threshold: pulumi.Input<number>;
  /** Data of the last message. Omitted: left as the service has it. Updates in place. */
  readonly lastMessage?: pulumi.Input<QuotaMessageInput>;
  /** Time of the last e-mail sending (ISO 8601), or null. Omitted: left as it is. Updates in place. */
  readonly lastSending?: pulumi.Input<string | null>;
}

/** The state of a QuotaThreshold; `taskIds` is always [] (the call is synchronous). */
export type QuotaThresholdState = Required<Omit<ObjectOf<typeof QuotaThresholdContract.fields>, "lastMessage">> & {
  clientId: number;
  lastMessage: QuotaMessage;
  taskIds: string[];
};

export const OUTPUTS = ["clientId", ...Object.keys(QuotaThresholdContract.fields), "taskIds"];

/**
 * A client's quota notification threshold (percent). Synchronous. Destroy deletes the
 * setting, which the service resets to its default (80).
 */
export class QuotaThreshold extends withOutputs<QuotaThresholdState>() {
  constructor(name: string, args: QuotaThresholdArgs, opts?: pulumi.CustomResourceOptions) {
    super(quotaThresholdShim, name, { ...outputKeys(OUTPUTS), ...args }, opts, "cims", "QuotaThreshold");
  }
}
