// docs/emulator.md's API table, from the contracts: each call a kind's contract names (its
// method and path), the task type the service answers it with, the kinds whose contracts name
// it and by which operation, and the kind whose emulator collection answers it (a kind that
// shares another's calls is served by that one). What the contracts cannot say (where a call
// comes from, its query parameters, what the provider does with it) is the page's prose.
import { type Contract, operationsOf } from "../api/contract";
import * as SERVED from "../emulator/generated/collections";
import { servingContract } from "../emulator/serve";
import { KIND_NAMES, kind } from "../provider/kinds/registry";

interface Row {
  readonly call: string;
  readonly task: string | undefined;
  readonly named: string[];
  readonly servedBy: Set<string>;
}

/** Every call of every kind's contract, once, in the registry's order and each contract's. */
function rows(): Row[] {
  const byCall = new Map<string, Row>();
  for (const type of KIND_NAMES) {
    const contract: Contract = kind(type).descriptor.contract;
    for (const op of operationsOf(contract)) {
      const call = `${op.method} ${op.template}`;
      const row = byCall.get(call) ?? { call, task: op.task, named: [], servedBy: new Set<string>() };
      if (row.task !== op.task) throw new Error(`${call}: ${type}'s contract says task ${String(op.task)}, another's ${String(row.task)}`);
      row.named.push(`${type} \`${op.name}\``);
      const by = servingContract(SERVED[type], op.name);
      if (!by) throw new Error(`${call}: no emulator collection answers ${type}'s ${op.name}`);
      row.servedBy.add(by.name);
      byCall.set(call, row);
    }
  }
  return [...byCall.values()];
}

/** The table, between docs/emulator.md's api-calls markers. */
export function apiTable(): string {
  let table = "| call | task | in the contract of | served by |\n|---|---|---|---|\n";
  for (const r of rows())
    table += `| \`${r.call}\` | ${r.task ? `\`${r.task}\`` : "none"} | ${r.named.join(", ")} | ${[...r.servedBy].join(", ")} |\n`;
  return table;
}
