// docs/emulator.md's API table, from the contracts: each call a kind's contract or a read-only
// record's names (its method and path), the task type the service answers it with, the
// contracts that name it and by which operation, and the contract whose emulator side answers
// it (a kind that shares another's calls is served by that one). What the contracts cannot say
// (where a call comes from, its query parameters, what the provider does with it) is the
// page's prose.
import { type CallContract, operationsOf } from "../api/contract";
import { READ_ONLY } from "../api/contract/read-only";
import * as SERVED from "../emulator/generated/collections";
import { READ_ONLY_SERVED } from "../emulator/routes/read-only";
import { type Served, servingContract } from "../emulator/serve";
import { KIND_NAMES, kind } from "../provider/kinds/registry";

interface Row {
  readonly call: string;
  readonly task: string | undefined;
  readonly named: string[];
  readonly servedBy: Set<string>;
}

/** Each contract with what the emulator serves it by: the kinds' in the registry's order, then the read-only records'. */
function contracts(): Array<[string, CallContract, Served<CallContract>]> {
  return [
    ...KIND_NAMES.map((type): [string, CallContract, Served<CallContract>] => [type, kind(type).descriptor.contract, SERVED[type]]),
    ...Object.values(READ_ONLY).map((c): [string, CallContract, Served<CallContract>] => [c.name, c, READ_ONLY_SERVED[c.name]]),
  ];
}

/** Every call of every contract, once, in the order of contracts() and each contract's. */
function rows(): Row[] {
  const byCall = new Map<string, Row>();
  for (const [type, contract, served] of contracts()) {
    for (const op of operationsOf(contract)) {
      const call = `${op.method} ${op.template}`;
      const row = byCall.get(call) ?? { call, task: op.task, named: [], servedBy: new Set<string>() };
      if (row.task !== op.task) throw new Error(`${call}: ${type}'s contract says task ${String(op.task)}, another's ${String(row.task)}`);
      row.named.push(`${type} \`${op.name}\``);
      const by = servingContract(served, op.name);
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
