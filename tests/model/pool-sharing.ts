// The shared pool in the lifecycle model: a second stack holds members of the pool the
// program's LbPoolSettings manages, each an LbPoolMember (hosts 60-62, never the program's).
// Its team adds members, changes their weight outside either stack, and makes one while the
// program's stack is destroyed. After every command (checkForeignUntouched) the other stack's
// members are all in the pool as that team left them: the LbPoolSettings never touches them.
// A third team's stack lists one of the program's members in its own LbPoolSettings (refused,
// then adopted on purpose and let go), or runs `pulumi import` of the pool and destroys it:
// neither changes the pool. It also adopts one of the program's subnets by `importId` and
// destroys its stack: the subnet is left as it was.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import fc from "fast-check";
import { api, faceProject, onFace } from "../support/cims";
import { createStack, type RunResult, stackTemplate, type TestStack } from "../support/harness";
import type { Cmd, Model } from "./commands";
import { checkAfterDestroy, checkForeignUntouched, InvariantError } from "./invariants";
import { memberAddress, POOL_ID } from "./program";
import { nameOf, type System } from "./system";

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
    stack = await createStack(
      {
        typeCheck: false,
        files: { "Pulumi.yaml": faceProject("lifecycle-model-other", sys.face), "index.js": "" },
        config: { "cims:apiUrl": sys.env.emulator.url, "cims:projectId": "1", "cims:regionId": "1" },
        secrets: { "cims:apiKey": sys.env.apiKey },
      },
      // The run's stack template, as the program's own stack: its config written before `stack init`, a CLI start less.
      await stackTemplate(),
    );
    sys.otherStack = stack;
  }
  await fs.writeFile(path.join(stack.projectDir, "index.js"), onFace(otherProgram(hosts), sys.face));
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

type PoolMember = { id: string; address: string; weight: number };

/** The pool's members as the service holds them: id, address and weight, sorted. */
async function poolMembers(sys: System): Promise<string[]> {
  const pool = (await api(sys.env, "GET", `/cloud/v1/lbpools/1/1/${POOL_ID}`)).body as { members: PoolMember[] };
  return pool.members.map((m) => `${m.id} ${m.address} ${m.weight}`).sort();
}

/**
 * A third team's stack, made once per system: its LbPoolSettings and Subnet on the system's face
 * (each command writes its program), its `pulumi import` of the pool on the plugin face, the one
 * `pulumi import` reaches. On a system of the plugin face one stack serves both (a stack's
 * init and config less): `pulumi import` runs no program, and each use leaves the stack empty.
 */
async function thirdStack(sys: System, use: "program" | "import"): Promise<TestStack> {
  const own = use === "import" && sys.face !== "native" ? "import" : "program";
  const known = sys.thirdStacks.get(own) as TestStack | undefined;
  if (known) return known;
  const name = `lifecycle-model-third-${own}`;
  const stack = await createStack(
    {
      typeCheck: false,
      files: { "Pulumi.yaml": faceProject(name, own === "import" ? "native" : sys.face), "index.js": "" },
      config: { "cims:apiUrl": sys.env.emulator.url, "cims:projectId": "1", "cims:regionId": "1" },
      secrets: { "cims:apiKey": sys.env.apiKey },
    },
    // As the other stack's: a CLI start less.
    await stackTemplate(),
  );
  sys.thirdStacks.set(own, stack);
  return stack;
}

/** A third stack's command, in the system's history; its output when it did not exit as `expected`. */
async function thirdRun(sys: System, label: string, run: Promise<RunResult>, expected: "ok" | "fails"): Promise<string> {
  const result = await run;
  sys.history.push(`${label} -> exit ${result.code}`);
  const output = result.stdout + result.stderr;
  if ((result.code === 0) !== (expected === "ok"))
    throw new InvariantError(`${label}: exit ${result.code}, expected ${expected}:\n${output.split("\n").slice(-30).join("\n")}`);
  return output;
}

/**
 * A third team's LbPoolSettings of the pool lists a member the program's stack made, at its
 * address and port: its `up` is refused naming the member, and writes nothing; listing the
 * member's id in `adoptMembers` adopts it with no write, and that stack's destroy leaves it.
 */
class ThirdStackListsMember implements Cmd {
  check(m: Readonly<Model>): boolean {
    return !m.armed && (m.program.pool?.members.length ?? 0) > 0;
  }
  async run(m: Model, sys: System): Promise<void> {
    const declared = new Set(m.program.pool!.members.map((x) => memberAddress(x.host)));
    const pool = (await api(sys.env, "GET", `/cloud/v1/lbpools/1/1/${POOL_ID}`)).body as { members: PoolMember[] };
    const target = pool.members.find((x) => declared.has(x.address));
    if (!target) return;
    const before = await poolMembers(sys);
    const stack = await thirdStack(sys, "program");
    const program = (adopt: boolean) =>
      onFace(
        `"use strict";\nconst cims = require("pulumi-cims");\nnew cims.LbPoolSettings("theirs", ${JSON.stringify({
          poolId: POOL_ID,
          members: [{ address: target.address, protocolPort: 8080 }],
          ...(adopt ? { adoptMembers: [target.id] } : {}),
        })});\n`,
        sys.face,
      );
    await fs.writeFile(path.join(stack.projectDir, "index.js"), program(false));
    const refused = await thirdRun(sys, `third stack up (lists ${target.address}:8080)`, stack.up([], { allowFailure: true }), "fails");
    if (!refused.includes(`already holds member ${target.address}:8080 (id ${target.id}`))
      throw new InvariantError(`the third stack's up failed without naming member ${target.id}:\n${refused.slice(-2000)}`);
    await fs.writeFile(path.join(stack.projectDir, "index.js"), program(true));
    await thirdRun(sys, `third stack up (adopts ${target.id})`, stack.up([], { allowFailure: true }), "ok");
    await thirdRun(sys, "third stack destroy", stack.destroy([], { allowFailure: true }), "ok");
    const after = await poolMembers(sys);
    if (after.join("\n") !== before.join("\n"))
      throw new InvariantError(
        `a third stack that lists, adopts, then lets go of a member changed the pool:\n${before.join("\n")}\n->\n${after.join("\n")}`,
      );
    checkForeignUntouched(sys, await sys.resources());
  }
  toString(): string {
    return "a third stack's LbPoolSettings lists the program's member: refused, then adopted on purpose and destroyed";
  }
}

/**
 * A third team runs `pulumi import` of the shared pool (the plugin face), then destroys its
 * stack: it takes no member the program's or the other stack's member creates made, and its
 * destroy removes no member at all.
 */
class ThirdStackImportsPool implements Cmd {
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(_m: Model, sys: System): Promise<void> {
    const before = await poolMembers(sys);
    const stack = await thirdStack(sys, "import");
    const args = ["import", "cims:index:LbPoolSettings", "pool", `1/1/${POOL_ID}`, "--yes", "--protect=false", "--generate-code=false"];
    await thirdRun(sys, "third stack pulumi import of the pool", stack.run([...args, "--stack", stack.name], { allowFailure: true }), "ok");
    await thirdRun(sys, "third stack destroy", stack.destroy([], { allowFailure: true }), "ok");
    const after = await poolMembers(sys);
    if (after.join("\n") !== before.join("\n"))
      throw new InvariantError(
        `a pulumi import of the pool, then its destroy, changed the pool:\n${before.join("\n")}\n->\n${after.join("\n")}`,
      );
    checkForeignUntouched(sys, await sys.resources());
  }
  toString(): string {
    return "a third stack runs pulumi import of the shared pool, then destroys its stack";
  }
}

/** A subnet record as the service holds it, without what only a read's time changes. */
async function subnetRecord(sys: System, id: string): Promise<Record<string, unknown> | undefined> {
  const res = await api(sys.env, "GET", `/cloud/v1/subnets/1/1/${id}`);
  return res.status === 200 ? (res.body as Record<string, unknown>) : undefined;
}

/**
 * A third team adopts one of the program's subnets on purpose (`importId`, with the record's
 * own arguments, so the adoption writes nothing), then destroys its stack: an adopted record is
 * left by destroy, so the subnet is in the service as it was, and the program's stack still
 * manages it (the invariants after the command check its state against the service).
 */
class ThirdStackAdoptsSubnet implements Cmd {
  constructor(readonly slot: number) {}
  check(m: Readonly<Model>): boolean {
    return !m.armed && m.program.subnets[this.slot] !== undefined;
  }
  async run(_m: Model, sys: System): Promise<void> {
    const own = (await sys.resources()).find((r) => nameOf(r) === `s${this.slot}`);
    const before = own?.id ? await subnetRecord(sys, own.id) : undefined;
    if (!own?.id || !before) return;
    const tags = Object.fromEntries(
      (before.tags as Array<{ key: string; value: string; read_only: boolean }>).filter((t) => !t.read_only).map((t) => [t.key, t.value]),
    );
    const args = {
      name: before.name,
      cidr: before.cidr,
      networkId: before.network_id,
      enableDhcp: before.enable_dhcp,
      tags,
      importId: own.id,
    };
    const stack = await thirdStack(sys, "program");
    await fs.writeFile(
      path.join(stack.projectDir, "index.js"),
      onFace(`"use strict";\nconst cims = require("pulumi-cims");\nnew cims.Subnet("adopted", ${JSON.stringify(args)});\n`, sys.face),
    );
    await thirdRun(sys, `third stack up (adopts subnet ${own.id} by importId)`, stack.up([], { allowFailure: true }), "ok");
    const destroyed = await thirdRun(sys, "third stack destroy", stack.destroy([], { allowFailure: true }), "ok");
    const after = await subnetRecord(sys, own.id);
    if (JSON.stringify(after) !== JSON.stringify(before))
      throw new InvariantError(
        `a third stack that adopted subnet ${own.id} and destroyed its stack changed it:\n${JSON.stringify(before)}\n->\n${JSON.stringify(after)}`,
      );
    if (!destroyed.includes(`subnet ${own.id} left in the service`))
      throw new InvariantError(`the third stack's destroy did not say it left subnet ${own.id}:\n${destroyed.slice(-2000)}`);
    checkForeignUntouched(sys, await sys.resources());
  }
  toString(): string {
    return `a third stack adopts subnet s${this.slot} by importId, then destroys its stack`;
  }
}

export const thirdStackAdoptsSubnet = (slot: number): Cmd => new ThirdStackAdoptsSubnet(slot);
export const otherStackAddsMember = (host: number): Cmd => new OtherStackAddsMember(host);
export const thirdStackListsMember = (): Cmd => new ThirdStackListsMember();
export const thirdStackImportsPool = (): Cmd => new ThirdStackImportsPool();
export const otherMemberWeight = (weight: number): Cmd => new OtherMemberWeight(weight);
export const destroyWhileOtherCreates = (host: number): Cmd => new DestroyWhileOtherCreates(host);

export const poolSharingCommands: Array<fc.Arbitrary<Cmd>> = [
  fc.integer({ min: 60, max: 62 }).map((h) => new OtherStackAddsMember(h)),
  fc.integer({ min: 1, max: 5 }).map((w) => new OtherMemberWeight(w)),
  fc.integer({ min: 60, max: 62 }).map((h) => new DestroyWhileOtherCreates(h)),
  fc.constant(new ThirdStackListsMember()),
  fc.constant(new ThirdStackImportsPool()),
  fc.integer({ min: 0, max: 2 }).map((slot) => new ThirdStackAdoptsSubnet(slot)),
];
