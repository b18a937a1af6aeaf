// The lifecycle model's commands for fast-check (fc.commands): program edits, drift made
// through the emulator's API, a fault armed for the next pulumi command, and the pulumi
// commands themselves, each followed by the invariants.
import * as fs from "node:fs/promises";
import fc from "fast-check";
import { api } from "../support/cims";
import {
  cidrOf,
  type Dns,
  type ImageModel,
  type ProgramModel,
  type Route,
  type SubnetModel,
  clone,
  initialProgram,
  memberAddress,
  memberOn,
  POOL_ID,
  SUBNET_SLOTS,
  IMAGE_SLOTS,
  OUTSIDE_TAG,
  IGNORED_TAG,
  VOLUMES,
} from "./program";
import { FAULTS } from "./faults";
import { kitEdits } from "./kits";
import { poolSharingCommands } from "./pool-sharing";
import { policySharingCommands } from "./policy-sharing";
import { type Drift, InvariantError, type Observed, checkAfterDestroy, checkAfterRefresh, checkAfterUp } from "./invariants";
import { checkWritesShown, type IgnoredTags, type LoggedWrite, type OutsideTags, type PreviewStep } from "./invariants";
import { checkForeignUntouched, checkKeyNotPrinted, checkNoOrphans, checkOnePerResource, foreignInTheWay, writeCount } from "./invariants";
import { type CommandRecord, type FaultSpec, type ForeignSpec, nameOf, POOL_PATH, type StateResource, type System } from "./system";

export interface Model {
  program: ProgramModel;
  /** Drift outside Pulumi not refreshed yet. */
  drift: Drift;
  /** Subnets given a tag outside Pulumi (see tagCommands). */
  outsideTags: OutsideTags;
  /** Subnets given a tag under cims:ignoreTags outside Pulumi, beside the other (see TagOutside). */
  ignoredTags: IgnoredTags;
  /** What each subnet held at the last check (omitted fields keep their values). */
  observed: Observed;
  armed: boolean;
}

export const initialModel = (): Model => ({
  program: initialProgram(),
  drift: new Map(),
  outsideTags: new Map(),
  ignoredTags: new Map(),
  observed: new Map(),
  armed: false,
});

export type Cmd = fc.AsyncCommand<Model, System>;

/** A change of the program; it reaches the stack with the next pulumi command. */
export class Edit implements Cmd {
  constructor(
    private readonly label: string,
    private readonly valid: (p: ProgramModel) => boolean,
    private readonly apply: (p: ProgramModel) => void,
  ) {}
  check(m: Readonly<Model>): boolean {
    return this.valid(m.program);
  }
  async run(m: Model): Promise<void> {
    this.apply(m.program);
  }
  toString(): string {
    return this.label;
  }
}

const show = (v: unknown) => (v === undefined ? "omitted" : JSON.stringify(v));

export function subnetEdit<K extends keyof SubnetModel>(slot: number, field: K, value: SubnetModel[K]): Cmd {
  return new Edit(
    `edit s${slot}.${String(field)} = ${show(value)}`,
    (p) =>
      p.subnets[slot] !== undefined &&
      (field !== "noRouter" || p.subnets[slot]!.gateway !== null) &&
      // A replacement at the same CIDR deletes first, which the service refuses while a member uses the subnet.
      !((field === "noRouter" || (field === "gateway" && value === null)) && memberOn(p, slot)),
    (p) => {
      const s = p.subnets[slot]!;
      s[field] = clone(value);
      if (field === "gateway" && value === null) s.noRouter = true; // a null gateway needs connectToNetworkRouter: false
    },
  );
}

const newSubnet = (slot: number): SubnetModel => ({
  name: `net-${slot}`,
  gen: 0,
  tags: { slot: `s${slot}` },
  dns: undefined,
  routes: undefined,
  gateway: undefined,
  noRouter: false,
});
const newImage = (slot: number): ImageModel => ({
  name: `image-${slot}`,
  osType: "linux",
  sshKey: "allow",
  architecture: "x86_64",
  tags: { slot: `img${slot}` },
});

/** Adds the subnet of slot `i` to the program. */
export const addSubnet = (i: number): Cmd =>
  new Edit(
    `add s${i}`,
    (p) => p.subnets[i] === undefined,
    (p) => (p.subnets[i] = newSubnet(i)),
  );

/** Puts the pool's member #n on the program's subnet of slot `slot` (`subnetId: s<slot>.id`). */
export const memberOnSubnet = (n: number, slot: number): Cmd =>
  new Edit(
    `pool: member #${n} on s${slot}`,
    (p) => (p.pool?.members.length ?? 0) > 0 && p.subnets[slot] !== undefined,
    (p) => (p.pool!.members[n % p.pool!.members.length].subnet = slot),
  );

/** Adds the image of slot `i` to the program. */
export const addImage = (i: number): Cmd =>
  new Edit(
    `add img${i}`,
    (p) => p.images[i] === undefined,
    (p) => (p.images[i] = newImage(i)),
  );

const ROUTES: Array<undefined | null | Route[]> = [
  undefined,
  null,
  [],
  [{ destination: "192.168.10.0/24", hop: 254 }],
  [
    { destination: "192.168.20.0/24", hop: 253 },
    { destination: "192.168.10.0/24", hop: 254 },
  ],
];

const subnetSlot = fc.integer({ min: 0, max: SUBNET_SLOTS - 1 });
const imageSlot = fc.integer({ min: 0, max: IMAGE_SLOTS - 1 });
const tagSets = fc.constantFrom<Record<string, string>>({}, { env: "dev" }, { env: "prod", team: "a" });

const subnetEdits: Array<fc.Arbitrary<Cmd>> = [
  fc.tuple(subnetSlot, fc.constantFrom("alpha", "beta")).map(([i, w]) => subnetEdit(i, "name", `net-${i}-${w}`)),
  fc.tuple(subnetSlot, tagSets).map(([i, t]) => subnetEdit(i, "tags", { ...t, slot: `s${i}` })),
  fc.tuple(subnetSlot, fc.constantFrom(undefined, true, false)).map(([i, v]) => subnetEdit(i, "enableDhcp", v)),
  fc
    .tuple(subnetSlot, fc.constantFrom<Dns>(undefined, null, [], ["8.8.8.8"], ["1.1.1.1", "8.8.4.4"]))
    .map(([i, v]) => subnetEdit(i, "dns", v)),
  fc.tuple(subnetSlot, fc.constantFrom(...ROUTES)).map(([i, v]) => subnetEdit(i, "routes", v)),
  fc.tuple(subnetSlot, fc.constantFrom<SubnetModel["gateway"]>(undefined, null, 1, 5)).map(([i, v]) => subnetEdit(i, "gateway", v)),
  subnetSlot.map((i) => subnetEdit(i, "noRouter", false)),
  fc.tuple(subnetSlot, fc.integer({ min: 1, max: 3 })).map(([i, g]) => subnetEdit(i, "gen", g)),
  subnetSlot.map(addSubnet),
  subnetSlot.map(
    (i) =>
      new Edit(
        `remove s${i}`,
        (p) => p.subnets[i] !== undefined && !memberOn(p, i),
        (p) => (p.subnets[i] = undefined),
      ),
  ),
];

function imageEdit<K extends keyof ImageModel>(slot: number, field: K, value: ImageModel[K]): Cmd {
  return new Edit(
    `edit img${slot}.${String(field)} = ${show(value)}`,
    (p) => p.images[slot] !== undefined,
    (p) => (p.images[slot]![field] = clone(value)),
  );
}

const imageEdits: Array<fc.Arbitrary<Cmd>> = [
  fc.tuple(imageSlot, fc.constantFrom("golden", "silver")).map(([i, w]) => imageEdit(i, "name", `image-${i}-${w}`)),
  fc.tuple(imageSlot, fc.constantFrom<ImageModel["osType"]>("linux", "windows")).map(([i, v]) => imageEdit(i, "osType", v)),
  fc.tuple(imageSlot, fc.constantFrom<ImageModel["sshKey"]>("allow", "deny", "required")).map(([i, v]) => imageEdit(i, "sshKey", v)),
  fc.tuple(imageSlot, tagSets).map(([i, t]) => imageEdit(i, "tags", { ...t, slot: `img${i}` })),
  fc.tuple(imageSlot, fc.constantFrom<ImageModel["architecture"]>("x86_64", "aarch64")).map(([i, v]) => imageEdit(i, "architecture", v)),
  imageSlot.map(addImage),
  imageSlot.map(
    (i) =>
      new Edit(
        `remove img${i}`,
        (p) => p.images[i] !== undefined,
        (p) => (p.images[i] = undefined),
      ),
  ),
];

const hasPool = (p: ProgramModel) => p.pool !== undefined;
const poolEdits: Array<fc.Arbitrary<Cmd>> = [
  fc.tuple(fc.integer({ min: 11, max: 13 }), fc.integer({ min: 1, max: 3 })).map(
    ([host, weight]) =>
      new Edit(
        `pool: add member ${memberAddress(host)} weight ${weight}`,
        (p) => hasPool(p) && !p.pool!.members.some((m) => m.host === host),
        (p) => p.pool!.members.push({ host, weight }),
      ),
  ),
  fc.nat(3).map(
    (n) =>
      new Edit(
        `pool: remove member #${n}`,
        (p) => hasPool(p) && p.pool!.members.length > 0,
        (p) => p.pool!.members.splice(n % p.pool!.members.length, 1),
      ),
  ),
  fc.tuple(fc.nat(3), subnetSlot).map(([n, slot]) => memberOnSubnet(n, slot)),
  fc.constant(
    new Edit(
      "pool: reverse member order",
      (p) => hasPool(p) && p.pool!.members.length > 1,
      (p) => p.pool!.members.reverse(),
    ),
  ),
  fc.tuple(fc.nat(3), fc.integer({ min: 1, max: 3 })).map(
    ([n, weight]) =>
      new Edit(
        `pool: member #${n} weight ${weight}`,
        (p) => hasPool(p) && p.pool!.members.length > 0,
        (p) => (p.pool!.members[n % p.pool!.members.length].weight = weight),
      ),
  ),
  fc
    .constantFrom("ROUND_ROBIN", "LEAST_CONNECTIONS", "SOURCE_IP")
    .map((a) => new Edit(`pool: lbAlgorithm = ${a}`, hasPool, (p) => (p.pool!.lbAlgorithm = a))),
  fc.constantFrom(undefined, "web-a", "web-b").map((name) => new Edit(`pool: name = ${show(name)}`, hasPool, (p) => (p.pool!.name = name))),
  fc.constant(
    new Edit(
      "add pool",
      (p) => !hasPool(p),
      (p) => (p.pool = { lbAlgorithm: "ROUND_ROBIN", members: [{ host: 14, weight: 1 }] }),
    ),
  ),
  fc.constant(new Edit("remove pool", hasPool, (p) => (p.pool = undefined))),
];

const policyVolumeEdits: Array<fc.Arbitrary<Cmd>> = [
  fc.constant(
    new Edit(
      "attach the program's volume to the policy (SnapshotPolicyVolume)",
      (p) => p.policyVolume !== true,
      (p) => (p.policyVolume = true),
    ),
  ),
  fc.constant(
    new Edit(
      "detach the program's volume from the policy",
      (p) => p.policyVolume === true,
      (p) => (p.policyVolume = false),
    ),
  ),
];

/** The edits of the kinds whose test kits give their lifecycle rows (./kits.ts), as the program's edits. */
const kitModelEdits: Array<fc.Arbitrary<Cmd>> = kitEdits().map((arb) =>
  arb.map(
    (e) =>
      new Edit(
        e.label,
        (p) => e.valid(p.kits),
        (p) => e.apply(p.kits),
      ),
  ),
);

/** The id the state holds for the resource `name`, if any. */
async function stateId(sys: System, name: string): Promise<string | undefined> {
  const res = (await sys.resources()).find((r) => nameOf(r) === name);
  return res && String(res.id);
}

/** Drift: a change made through the service's API, outside Pulumi. Does nothing when the resource is not in the state. */
class DriftCmd implements Cmd {
  constructor(
    private readonly label: string,
    private readonly target: string,
    private readonly kind: "renamed" | "deleted" | "members",
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.drift.get(this.target) !== "deleted";
  }
  async run(m: Model, sys: System): Promise<void> {
    const id = await stateId(sys, this.target);
    if (id === undefined) return;
    if (this.kind === "renamed") {
      await expectOk(api(sys.env, "PATCH", `/cloud/v1/subnets/1/1/${id}`, { name: "renamed-by-hand" }));
    } else if (this.kind === "deleted") {
      const res = await api(sys.env, "DELETE", `/cloud/v1/subnets/1/1/${id}`);
      // A pool member uses it: the service refuses to delete it (409), and nothing drifted.
      if (res.status === 409 && JSON.stringify(res.body).includes("One or more ports have an IP allocation")) return;
      const del = await expectOk(Promise.resolve(res));
      await sys.waitTask(del.tasks[0]);
    } else {
      const pool = await expectOk(api(sys.env, "GET", POOL_PATH));
      const members = (pool.members as Array<{ address: string; protocol_port: number; weight: number }>).map((x) => ({
        address: x.address,
        protocol_port: x.protocol_port,
        weight: x.weight,
      }));
      // Someone replaces the first member of the stack's (another stack's members stay).
      const others = new Set([...sys.otherMembers.values()].map((o) => o.address));
      const first = members.findIndex((x) => !others.has(x.address));
      // An address the pool does not hold yet: a second such drift must not list one twice.
      const fresh = ["10.0.0.20", "10.0.0.21", "10.0.0.22", "10.0.0.23"].find((a) => !members.some((x) => x.address === a));
      const changed = [{ address: fresh, protocol_port: 8080, weight: 2 }, ...members.filter((_x, i) => i !== first)];
      const patch = await expectOk(api(sys.env, "PATCH", POOL_PATH, { members: changed }));
      for (const task of patch.tasks) await sys.waitTask(task);
    }
    if (this.kind === "deleted" || !m.drift.has(this.target)) m.drift.set(this.target, this.kind);
  }
  toString(): string {
    return this.label;
  }
}

async function expectOk(call: Promise<{ status: number; body: { [k: string]: unknown; tasks: string[] } }>) {
  const res = await call;
  if (res.status >= 300) throw new Error(`drift call failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Someone deletes the subnet of this slot through the service's API (refused while a pool member uses it). */
export const deleteOutside = (i: number): Cmd => new DriftCmd(`drift: delete s${i} outside Pulumi`, `s${i}`, "deleted");

/** Someone replaces the pool's first member (not another stack's) through the pool's whole-list update. */
export const replaceMemberOutside = (): Cmd =>
  new DriftCmd(`drift: replace pool ${POOL_ID}'s first member outside Pulumi`, "pool", "members");

const driftCommands: Array<fc.Arbitrary<Cmd>> = [
  subnetSlot.map((i) => new DriftCmd(`drift: rename s${i} outside Pulumi`, `s${i}`, "renamed")),
  subnetSlot.map(deleteOutside),
  fc.constant(replaceMemberOutside()),
];

/**
 * Another team makes a subnet on the network (a CIDR the program may declare later, or one it
 * never will) or an image from one of the stack's volumes: now, or while the next `up` runs.
 */
class ForeignCmd implements Cmd {
  constructor(
    private readonly spec: ForeignSpec,
    private readonly duringUp: boolean,
  ) {}
  check(): boolean {
    return true;
  }
  async run(_m: Model, sys: System): Promise<void> {
    if (this.duringUp) sys.foreignDuringUp = this.spec;
    else await sys.makeForeign(this.spec);
  }
  toString(): string {
    const what = this.spec.kind === "subnets" ? `a subnet ${this.spec.cidr}` : `an image from volume ${this.spec.volume}`;
    return `another team makes ${what}${this.duringUp ? " while the next up runs" : ""}`;
  }
}

/**
 * The takeover a lost answer invites: the next up's POST for the program's subnet (or image)
 * in a slot is answered 502 by a gateway before the service acted, and at that moment another
 * team makes the same subnet (the program's name and CIDR) or image (its name and volume).
 * The stack must record only what its own create made (checked after every command).
 */
class TwinOnLostAnswer implements Cmd {
  constructor(
    private readonly kind: "subnets" | "images",
    private readonly slot: number,
  ) {}
  check(m: Readonly<Model>): boolean {
    return !m.armed && (this.kind === "subnets" ? m.program.subnets : m.program.images)[this.slot] !== undefined;
  }
  async run(m: Model, sys: System): Promise<void> {
    const path = this.kind === "subnets" ? "/cloud/v1/subnets/1/1" : "/cloud/v1/bmimages/1/1";
    sys.armed = {
      label: `502 before acting on POST ${path}`,
      kind: "request",
      body: { method: "POST", path, count: 1, action: "status", status: 502, proxy: true },
    };
    m.armed = true;
    const subnet = m.program.subnets[this.slot];
    const image = m.program.images[this.slot];
    sys.foreignDuringUp =
      this.kind === "subnets" && subnet
        ? { kind: "subnets", cidr: cidrOf(this.slot, subnet.gen), name: subnet.name, whenAnswerLost: path }
        : { kind: "images", volume: VOLUMES[this.slot], name: image?.name, whenAnswerLost: path };
  }
  toString(): string {
    return `the next up's POST for ${this.kind === "subnets" ? "s" : "img"}${this.slot} is answered 502 before the service acts, and another team makes its twin then`;
  }
}

const twinCommands: Array<fc.Arbitrary<Cmd>> = [
  subnetSlot.map((slot) => new TwinOnLostAnswer("subnets", slot)),
  imageSlot.map((slot) => new TwinOnLostAnswer("images", slot)),
];

const foreignCommands: Array<fc.Arbitrary<Cmd>> = [
  fc
    .tuple(
      fc.oneof(
        fc.tuple(subnetSlot, fc.integer({ min: 0, max: 3 })).map(([slot, gen]) => cidrOf(slot, gen)),
        fc.constantFrom("10.150.0.0/24", "10.150.1.0/24"),
      ),
      fc.boolean(),
    )
    .map(([cidr, during]) => new ForeignCmd({ kind: "subnets", cidr }, during)),
  fc.tuple(imageSlot, fc.boolean()).map(([slot, during]) => new ForeignCmd({ kind: "images", volume: VOLUMES[slot] }, during)),
];

export class ArmFault implements Cmd {
  constructor(private readonly fault: FaultSpec) {}
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(m: Model, sys: System): Promise<void> {
    sys.armed = this.fault;
    m.armed = true;
  }
  toString(): string {
    return `arm fault for the next command: ${this.fault.label}`;
  }
}

/** A pulumi command and the invariants after it; a failure is followed by clearing faults and converging. */
export class Pulumi implements Cmd {
  constructor(
    private readonly command: "up" | "preview" | "refresh" | "destroy",
    /** `up --replace` of the subnet of this slot. */
    private readonly replace?: number,
  ) {}
  check(m: Readonly<Model>): boolean {
    // The engine asks nothing of the provider for `--replace`: the run sets `deleteBeforeReplace`
    // on the subnet (the docs' advice), which the service refuses while a member uses it.
    return this.replace === undefined || (!m.armed && m.program.subnets[this.replace] !== undefined && !memberOn(m.program, this.replace));
  }
  async run(m: Model, sys: System): Promise<void> {
    const writesBefore = writeCount(sys);
    const rec = await this.pulumi(m, sys);
    if (rec === undefined) return;
    m.armed = false;
    checkKeyNotPrinted(sys, rec);
    checkForeignUntouched(sys, await sys.resources());
    if (this.command === "preview" || this.command === "refresh") {
      const writes = writeCount(sys) - writesBefore;
      if (writes > 0) throw new InvariantError(`\`pulumi ${this.command}\` sent ${writes} writing request(s)`);
    }
    if (rec.result.code !== 0) {
      const excused = rec.fault || (this.command === "up" && [...m.drift.values()].includes("deleted")) || inTheWayAndNamed(m, sys, rec);
      if (!excused) throw new InvariantError(`\`pulumi ${rec.command}\` failed with no fault armed:\n${tail(rec)}`);
      return converge(m, sys, rec);
    }
    const resources = await sys.resources();
    checkNoOrphans(sys, resources);
    checkOnePerResource(sys);
    if (this.command === "up") await verifyUp(m, sys, rec);
    if (this.command === "refresh") {
      checkAfterRefresh(sys, resources);
      m.drift.clear();
      outsideTagsRefreshed(m);
    }
    if (this.command === "destroy") {
      checkAfterDestroy(sys, resources);
      m.drift.clear();
      m.observed.clear();
      m.outsideTags.clear();
      m.ignoredTags.clear();
    }
  }
  /** The command, or undefined for an `up --replace` of a subnet the state does not hold. */
  private async pulumi(m: Model, sys: System): Promise<CommandRecord | undefined> {
    if (this.replace === undefined) return sys.pulumi(this.command, m.program);
    const urn = (await sys.resources()).find((r) => nameOf(r) === `s${this.replace}`)?.urn;
    if (urn === undefined) return undefined;
    const program = clone(m.program);
    program.subnets[this.replace]!.deleteFirst = true;
    return sys.pulumi("up", program, ["--replace", urn]);
  }
  toString(): string {
    if (this.replace !== undefined) return `pulumi up --replace s${this.replace} (deleteBeforeReplace for the run)`;
    return `pulumi ${this.command}`;
  }
}

/**
 * `pulumi up` interrupted by SIGINT while a task it started runs: Pulumi cancels gracefully,
 * letting operations in flight finish. Whatever it leaves, the next `up` alone must converge
 * (no refresh, no manual step), and nothing may be orphaned or made twice.
 */
class InterruptedUp implements Cmd {
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(m: Model, sys: System): Promise<void> {
    const rec = await sys.interruptedUp(m.program);
    checkKeyNotPrinted(sys, rec);
    checkForeignUntouched(sys, await sys.resources());
    if (!rec.interrupted) {
      if (rec.result.code !== 0 && ![...m.drift.values()].includes("deleted") && !inTheWayAndNamed(m, sys, rec))
        throw new InvariantError(`\`pulumi up\` (no task started, not interrupted) failed:\n${tail(rec)}`);
      if (rec.result.code === 0) return verifyUp(m, sys, rec);
      return converge(m, sys, rec);
    }
    // Not one record per resource yet: a replacement cancelled between its create and the old
    // record's delete keeps both, the old one in the state pending deletion (converge checks
    // that no record is missing from the state, and its up deletes the old one).
    if (rec.result.code === 0) return verifyUp(m, sys, rec);
    return converge(m, sys, rec);
  }
  toString(): string {
    return "pulumi up, SIGINT while a task runs";
  }
}

/**
 * A failure caused by another team's subnet holding a CIDR the program declares (before the
 * up, or made while it ran): excused only when the output names that subnet.
 */
function inTheWayAndNamed(m: Model, sys: System, rec: CommandRecord): boolean {
  const output = rec.result.stdout + rec.result.stderr;
  return foreignInTheWay(sys, m.program).some((id) => output.includes(id));
}

const tail = (rec: CommandRecord) => (rec.result.stdout + rec.result.stderr).trim().split("\n").slice(-40).join("\n");

/** Whether an up's output says it changed no resource: its summary is `Resources:`, then `N unchanged` alone. */
export const changedNoResource = (stdout: string): boolean => /^Resources:\n\s+\d+ unchanged\n/m.test(stdout);

/**
 * After a successful up: the service holds the program, and a second preview shows no changes.
 * That preview is left out after an up that changed no resource (unless `sys.previewEveryUp`):
 * such an up diffed each resource of this state against this program and found nothing to do;
 * it kept each one's outputs and recorded the inputs its diff found unchanged, so the preview
 * would diff the same outputs against the same program again.
 */
async function verifyUp(m: Model, sys: System, up: CommandRecord): Promise<void> {
  const resources = await sys.resources();
  checkNoOrphans(sys, resources);
  checkOnePerResource(sys);
  checkForeignUntouched(sys, resources);
  outsideTagsAfterUp(m, resources);
  checkAfterUp(sys, m.program, resources, m.drift, m.observed, m.outsideTags, m.ignoredTags);
  // Unrefreshed drift included: an update writes only what changed between the state and the
  // program, and keeps the state's value of the rest (tests/unit/provider/methods/up-after-unrefreshed-drift.test.ts).
  if (!sys.previewEveryUp && changedNoResource(up.result.stdout)) return;
  const preview = await sys.pulumi("preview", m.program, ["--expect-no-changes"]);
  checkKeyNotPrinted(sys, preview);
  if (preview.result.code !== 0) throw new InvariantError(`\`pulumi preview --expect-no-changes\` after up failed:\n${tail(preview)}`);
}

/**
 * After a failed command: faults cleared (hung tasks then finish), subnets or images the
 * output named deleted as its message tells the user, a refresh when the service may have
 * changed behind the state (a task that outlived the command, unrefreshed deletion), then up.
 */
async function converge(m: Model, sys: System, failed: CommandRecord): Promise<void> {
  await sys.clearFaults();
  const named = checkNoOrphans(sys, await sys.resources(), failed);
  for (const ref of named) {
    const [kind, id] = ref.split("/");
    const del = await expectOk(api(sys.env, "DELETE", `/cloud/v1/${kind}/1/1/${id}`));
    await sys.waitTask(del.tasks[0]);
  }
  if (failed.fault?.hang || [...m.drift.values()].includes("deleted")) {
    const refresh = await sys.pulumi("refresh", m.program);
    checkKeyNotPrinted(sys, refresh);
    if (refresh.result.code !== 0) throw new InvariantError(`converging: \`pulumi refresh\` failed:\n${tail(refresh)}`);
    checkAfterRefresh(sys, await sys.resources());
    m.drift.clear();
    outsideTagsRefreshed(m);
  }
  // Another team's subnet in the way of the program's CIDR: its owner removes it (the stack never does).
  for (const id of foreignInTheWay(sys, m.program)) await sys.removeForeign(id);
  const up = await sys.pulumi("up", m.program);
  checkKeyNotPrinted(sys, up);
  checkForeignUntouched(sys, await sys.resources());
  if (up.result.code !== 0) throw new InvariantError(`converging: \`pulumi up\` after clearing faults failed:\n${tail(up)}`);
  await verifyUp(m, sys, up);
}

// ignoreChanges on a subnet's tags, a tag added outside Pulumi, and an up checked against
// its own preview: no up writes a field (or a tag key) its preview did not show.

/** A subnet's tags put under `ignoreChanges` (true) or taken out of it. */
const ignoreTagsEdits: Array<fc.Arbitrary<Cmd>> = [fc.tuple(subnetSlot, fc.boolean()).map(([i, on]) => subnetEdit(i, "ignoreTags", on))];

/**
 * Someone adds OUTSIDE_TAG to a subnet of the state, through the service's API, and IGNORED_TAG
 * beside it (another system's, under the stack's cims:ignoreTags).
 */
export class TagOutside implements Cmd {
  constructor(private readonly target: string) {}
  check(m: Readonly<Model>): boolean {
    return m.drift.get(this.target) !== "deleted";
  }
  async run(m: Model, sys: System): Promise<void> {
    const id = await stateId(sys, this.target);
    if (id === undefined) return;
    const tags = { [OUTSIDE_TAG.key]: OUTSIDE_TAG.value, [IGNORED_TAG.key]: IGNORED_TAG.value };
    await expectOk(api(sys.env, "PATCH", `/cloud/v1/subnets/1/1/${id}`, { tags }));
    m.outsideTags.set(this.target, { id, refreshed: false });
    m.ignoredTags.set(this.target, id);
  }
  toString(): string {
    return `drift: tags ${OUTSIDE_TAG.key} and ${IGNORED_TAG.key} (ignored) added to ${this.target} outside Pulumi`;
  }
}

/** A refresh read every tag added outside Pulumi into the state. */
function outsideTagsRefreshed(m: Model): void {
  for (const tag of m.outsideTags.values()) tag.refreshed = true;
}

/**
 * After a successful up: a tag on a record the subnet no longer has (replaced, removed) is
 * gone with it; one a refresh read is removed by the up (the state has it, the program not),
 * unless the subnet's tags are under ignoreChanges. One no refresh read stays.
 */
function outsideTagsAfterUp(m: Model, resources: StateResource[]): void {
  for (const [name, tag] of m.outsideTags) {
    const id = resources.find((r) => nameOf(r) === name)?.id;
    const ignored = m.program.subnets[Number(name.slice(1))]?.ignoreTags === true;
    if (String(id) !== tag.id || (tag.refreshed && !ignored)) m.outsideTags.delete(name);
  }
  // The ignored tag goes only with its record.
  for (const [name, id] of m.ignoredTags) if (String(resources.find((r) => nameOf(r) === name)?.id) !== id) m.ignoredTags.delete(name);
}

/** The provider's writes (PATCH, PUT) from the emulator's request log, from line `from` on. */
async function providerWrites(sys: System, from: number): Promise<{ lines: number; writes: LoggedWrite[] }> {
  const file = sys.env.emulator.requestLog;
  const lines = file ? (await fs.readFile(file, "utf8")).split("\n").filter((l) => l !== "") : [];
  const writes = lines
    .slice(from)
    .map((l) => JSON.parse(l) as LoggedWrite & { user_agent: string | null })
    .filter((w) => (w.method === "PATCH" || w.method === "PUT") && w.user_agent?.startsWith("pulumi-cims/"));
  return { lines: lines.length, writes };
}

/** `pulumi preview --json`, then `pulumi up`: the up's writes are only what the preview showed (checkWritesShown). */
export class PreviewedUp implements Cmd {
  check(m: Readonly<Model>): boolean {
    return !m.armed;
  }
  async run(m: Model, sys: System): Promise<void> {
    const preview = await sys.pulumi("preview", m.program, ["--json"]);
    checkKeyNotPrinted(sys, preview);
    if (preview.result.code !== 0) return new Pulumi("up").run(m, sys);
    const steps = (JSON.parse(preview.result.stdout) as { steps?: PreviewStep[] }).steps ?? [];
    const before = await sys.resources();
    const quotaBefore = sys.env.emulator.store.get("client_quotas", 1)?.threshold;
    const { lines } = await providerWrites(sys, 0);
    const at = sys.history.length;
    await new Pulumi("up").run(m, sys);
    // Judged only when that up succeeded: converging after a failure runs more ups.
    if (!sys.history[at]?.endsWith("exit 0")) return;
    checkWritesShown(steps, before, (await providerWrites(sys, lines)).writes, quotaBefore);
  }
  toString(): string {
    return "pulumi preview --json, then pulumi up: only what it showed is written";
  }
}

const tagCommands: Array<fc.Arbitrary<Cmd>> = [
  ...ignoreTagsEdits,
  subnetSlot.map((i) => new TagOutside(`s${i}`)),
  fc.constant(new PreviewedUp()),
  // After a tag added outside Pulumi or not: the subnet's own record is no obstacle to its replacement.
  subnetSlot.map((i) => new Pulumi("up", i)),
];

const weighted = (weight: number, arbs: Array<fc.Arbitrary<Cmd>>) => ({ arbitrary: fc.oneof(...arbs), weight });

/** Every command, weighted: about half are pulumi commands. */
export function commandArbitrary(): fc.Arbitrary<Cmd> {
  return fc.oneof(
    weighted(3, subnetEdits),
    weighted(1, imageEdits),
    weighted(1, poolEdits),
    weighted(1, policyVolumeEdits),
    weighted(1, kitModelEdits),
    weighted(1, driftCommands),
    weighted(1, tagCommands),
    weighted(1, foreignCommands),
    weighted(1, twinCommands),
    weighted(1, poolSharingCommands),
    weighted(1, policySharingCommands),
    weighted(1, [fc.constantFrom(...FAULTS).map((f) => new ArmFault(f))]),
    { arbitrary: fc.constant(new Pulumi("up")), weight: 5 },
    { arbitrary: fc.constantFrom(new Pulumi("preview"), new Pulumi("refresh"), new Pulumi("destroy")), weight: 2 },
    { arbitrary: fc.constant(new InterruptedUp()), weight: 1 },
  );
}
