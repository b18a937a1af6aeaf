// The shared pool in the lifecycle model: a second stack holds members of the pool the
// program's LbPoolSettings manages, each an LbPoolMember (hosts 60-62, never the program's).
// Its team adds members, changes their weight outside either stack, and makes one while the
// program's stack is destroyed. After every command (checkForeignUntouched) the other stack's
// members are all in the pool as that team left them: the LbPoolSettings never touches them.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import fc from "fast-check";
import { api } from "../support/cims";
import { createStack, type TestStack } from "../support/harness";
import type { Cmd, Model } from "./commands";
import { checkAfterDestroy, checkForeignUntouched, InvariantError } from "./invariants";
import { memberAddress, POOL_ID } from "./program";
import type { System } from "./system";

const MEMBERS = `/cloud/v1/loadbalancers/1/1/pools/${POOL_ID}/members`;

/** The other stack's hosts, by system. */
const hostsOf = new WeakMap<System, number[]>();

function otherProgram(hosts: number[]): string {
  const lines = ['"use strict";', 'const cims = require("pulumi-cims");'];
  for (const h of hosts)
    lines.push(`new cims.LbPoolMember("m${h}", ${JSON.stringify({ poolId: POOL_ID, address: memberAddress(h), protocolPort: 8080 })});`);
  return `${lines.join("\n")}\n`;
}

/** The other stack, made on the system's emulator the first time; its program declares `hosts`. */
async function otherStack(sys: System, hosts: number[]): Promise<TestStack> {
  let stack = sys.otherStack as TestStack | undefined;
  if (!stack) {
    stack = await createStack({
      typeCheck: false,
      files: { "Pulumi.yaml": "name: lifecycle-model-other\nruntime: nodejs\n", "index.js": "" },
      config: { "cims:apiUrl": sys.env.emulator.url, "cims:projectId": "1", "cims:regionId": "1" },
      secrets: { "cims:apiKey": sys.env.apiKey },
    });
    sys.otherStack = stack;
  }
  await fs.writeFile(path.join(stack.projectDir, "index.js"), otherProgram(hosts));
  return stack;
}

/** The other stack's up: its members recorded as that team's, with the weight the service gave them (1). */
async function otherUp(sys: System, stack: TestStack, hosts: number[]): Promise<void> {
  const up = await stack.up([], { allowFailure: true });
  if (up.code !== 0) throw new InvariantError(`the other stack's up failed:\n${(up.stdout + up.stderr).split("\n").slice(-30).join("\n")}`);
  hostsOf.set(sys, hosts);
  const pool = (await api(sys.env, "GET", `/cloud/v1/lbpools/1/1/${POOL_ID}`)).body as {
    members: Array<{ id: string; address: string; weight: number }>;
  };
  for (const h of hosts) {
    const m = pool.members.find((x) => x.address === memberAddress(h));
    if (!m) throw new InvariantError(`the other stack's member ${memberAddress(h)} is not in the pool after its up`);
    if (![...sys.otherMembers.keys()].includes(m.id)) sys.otherMembers.set(m.id, { address: m.address, weight: m.weight });
  }
}

/** The other stack adds a member with an LbPoolMember. */
class OtherStackAddsMember implements Cmd {
  constructor(private readonly host: number) {}
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(_m: Model, sys: System): Promise<void> {
    const hosts = hostsOf.get(sys) ?? [];
    if (hosts.includes(this.host)) return;
    const next = [...hosts, this.host];
    await otherUp(sys, await otherStack(sys, next), next);
  }
  toString(): string {
    return `another stack adds pool member ${memberAddress(this.host)} (LbPoolMember)`;
  }
}

/** The other team changes one of its members' weight outside either stack. */
class OtherMemberWeight implements Cmd {
  constructor(private readonly weight: number) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, sys: System): Promise<void> {
    const [id, member] = [...sys.otherMembers][0] ?? [];
    if (!id || !member) return;
    const res = await api(sys.env, "PATCH", `${MEMBERS}/${id}`, { weight: this.weight });
    if (res.status >= 300) throw new Error(`weight change failed: ${res.status} ${JSON.stringify(res.body)}`);
    for (const task of (res.body as { tasks: string[] }).tasks) await sys.waitTask(task);
    member.weight = this.weight;
  }
  toString(): string {
    return `another team sets its first pool member's weight to ${this.weight} outside Pulumi`;
  }
}

/**
 * `pulumi destroy` of the program's stack while the other stack's up creates a member: the
 * destroy removes the stack's members one by one and waits out the pool's lock; the member
 * the other stack makes meanwhile stays.
 */
class DestroyWhileOtherCreates implements Cmd {
  constructor(private readonly host: number) {}
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(m: Model, sys: System): Promise<void> {
    const hosts = hostsOf.get(sys) ?? [];
    if (hosts.includes(this.host)) return;
    const next = [...hosts, this.host];
    const stack = await otherStack(sys, next);
    const [destroy] = await Promise.all([sys.pulumi("destroy", m.program), otherUp(sys, stack, next)]);
    if (destroy.result.code !== 0)
      throw new InvariantError(`\`pulumi destroy\` during another stack's member create failed:\n${destroy.result.stdout.slice(-2000)}`);
    const resources = await sys.resources();
    checkForeignUntouched(sys, resources);
    checkAfterDestroy(sys, resources);
    m.drift.clear();
    m.observed.clear();
  }
  toString(): string {
    return `pulumi destroy while another stack creates pool member ${memberAddress(this.host)}`;
  }
}

export const otherStackAddsMember = (host: number): Cmd => new OtherStackAddsMember(host);
export const otherMemberWeight = (weight: number): Cmd => new OtherMemberWeight(weight);
export const destroyWhileOtherCreates = (host: number): Cmd => new DestroyWhileOtherCreates(host);

export const poolSharingCommands: Array<fc.Arbitrary<Cmd>> = [
  fc.integer({ min: 60, max: 62 }).map((h) => new OtherStackAddsMember(h)),
  fc.integer({ min: 1, max: 5 }).map((w) => new OtherMemberWeight(w)),
  fc.integer({ min: 60, max: 62 }).map((h) => new DestroyWhileOtherCreates(h)),
];
