// How a SnapshotPolicy's create is known as the stack's when its answer is lost. A policy has no
// tags, and its create body nothing else a later read shows but its name, schedules and volumes,
// so the create's one-time mark rides in the name: the POST names the policy
// `<name> cims-create-<random>[-<resource>]`, and a PATCH sets the program's name once the
// create has landed. The marked name keeps to the vendor's rule for a policy's name (its Terraform
// provider's: at most 63 letters, digits, spaces, `.`, `_` and `-`), shortening the program's
// name where it must: a name the service might refuse would fail every create. A POST whose answer never came (a reset, a timeout, a gateway's 5xx) is
// not repeated: the scope's policies are looked through for the one whose name carries this
// create's mark, and only that one is taken. A policy whose name carries another mark, or none,
// is never taken: the next create refuses to make a second policy beside one a lost create
// left, unless the mark names this very resource (the plugin face knows its URN).
import { randomBytes } from "node:crypto";
import { processClock as clock } from "../client/clock";
import { SnapshotPolicy as contract } from "../../api/contract/snapshot-policy";
import { type ApiRecord, recordsIn, stringsIn } from "../../api/guards";
import { messageOf } from "../../api/messages";
import { CimsError } from "../client/errors";
import { listAll } from "../client/list";
import { apiClient, cancelSignal, deadlineFor, log, resourceUrn } from "../methods/context";
import { mayHaveActed } from "../methods/create";
import { callPath } from "../methods/describe";
import { claim, isClaimed, RECOVER_GRACE_MS } from "../methods/evidence";
import { ownerKey } from "../methods/mark";
import { inContext, PartialCreateError } from "../methods/resource-errors";
import type { CheckFailure, Inputs } from "../methods/schema";
import { matchSchedules, ownView, policyCall, type PolicyRef } from "./snapshot-policy-parts";

/** How often a create whose answer was lost looks again for the policy it may have made. */
const LOOK_EVERY_MS = 2_000;

/** The longest policy name the vendor's rule allows. */
const NAME_MAX = 63;
const TOKEN = /^(.*) (cims-create-[0-9a-f]{12}(?:-[0-9a-f]{12})?)$/s;
/** The marks this process's creates sent: a policy carrying one is a create under way here, not one left. */
const issued = new Set<string>();

/** A new mark: 48 random bits, and where the face knows the resource's URN, 48 bits of its digest (mark.ts). */
function newNameMark(urn: string | undefined): string {
  const random = randomBytes(6).toString("hex");
  const mark = `cims-create-${random}${urn === undefined ? "" : `-${ownerKey(urn).slice(0, 12)}`}`;
  issued.add(mark);
  return mark;
}

/** The program's name as a marked name carries it: shortened to leave room for the mark. */
const namePart = (name: unknown, mark: string): string => String(name).slice(0, NAME_MAX - 1 - mark.length);

/** The name a create sends: the program's (shortened where it must), and the create's mark. */
export const markedName = (name: unknown, mark: string): string => `${namePart(name, mark)} ${mark}`;

/** The program's name (as far as it carries it) and the mark a policy's name carries, if it carries one. */
export function nameMark(name: unknown): { name: string; mark: string } | undefined {
  const found = typeof name === "string" ? TOKEN.exec(name) : null;
  return found ? { name: found[1], mark: found[2] } : undefined;
}

/** The resource a mark names (the first 12 hex digits of its URN's digest), if it names one. */
const markOwner = (mark: string): string | undefined => mark.split("-")[3];

/** What the create hands back: the policy's state from the record, the stack's parts, whether adopted. */
export type Landed = (inputs: Inputs, record: ApiRecord, parts: Inputs) => Inputs;

const listPath = (i: PolicyRef) => callPath(contract, "list", i);

/**
 * The scope's policies of the program's name that a lost create left (their name carries a mark
 * no create of this process sent, and no resource of this run holds them): the one this
 * resource's own create left (the mark names its URN), and those whose mark names no resource.
 */
export async function leftPolicies(i: PolicyRef): Promise<{ own?: ApiRecord; unproven: ApiRecord[] }> {
  const records = await listAll(apiClient(), listPath(i));
  const left = records.filter((r) => {
    const marked = nameMark(r.name);
    return marked !== undefined && marked.name === namePart(i.name, marked.mark) && !issued.has(marked.mark) && !isClaimed(String(r.id));
  });
  const urn = resourceUrn();
  const self = urn === undefined ? undefined : ownerKey(urn).slice(0, 12);
  const owner = (r: ApiRecord) => markOwner(nameMark(r.name)?.mark ?? "");
  return {
    own: self === undefined ? undefined : left.find((r) => owner(r) === self),
    unproven: left.filter((r) => owner(r) === undefined),
  };
}

/** Why no policy is made beside one a lost create left that nothing shows is this resource's. */
export function unprovenReason(what: string, i: PolicyRef, records: readonly ApiRecord[]): string {
  const ids = records.map((r) => String(r.id));
  return (
    `name: snapshot policy ${ids.join(", ")} is named "${String(i.name)}" with a create mark (cims-create-...) after it: ` +
    `a create whose answer was lost (a reset, a timeout, a cancelled run) made it, and no stack records it. Its mark does not say ` +
    `which resource made it, so \`pulumi up\` makes no second policy of this name while it exists: if it is ${what}'s, adopt it ` +
    `by setting \`importId: ${ids[0]}\` on this resource (the adoption sets the program's name); otherwise delete it ` +
    `(DELETE ${listPath(i)}/${ids[0]})`
  );
}

/** At preview, for a new resource: a policy its own lost create left is taken (said so); one no mark proves refuses the create. */
export async function checkLeft(what: string, i: PolicyRef): Promise<CheckFailure[]> {
  // A list that fails is no failure of the preview: the create looks again before its POST, and stops there if it fails.
  const { own, unproven } = await leftPolicies(i).catch((err: unknown) => {
    log(`${what}: could not look for a policy a lost create left: ${messageOf(err)}`);
    return { own: undefined, unproven: [] };
  });
  if (own) {
    log(`${what}: takes snapshot policy ${String(own.id)}, left by this resource's own lost create (its name carries its mark)`);
    return [];
  }
  return unproven.length > 0 ? [{ property: "name", reason: unprovenReason(what, i, unproven) }] : [];
}

/**
 * The policy this resource's create made, made the stack's: its mark removed from the name (and
 * the status set where it differs), its schedules and volumes the stack's, as its own POST put
 * them there. A PATCH that fails leaves the policy recorded, partly created: the next `up` sets the name.
 */
export async function land(what: string, i: PolicyRef, record: ApiRecord, landed: Landed): Promise<{ id: string; outs: Inputs }> {
  const id = String(record.id);
  claim(id);
  const volumes = stringsIn(i.volumeIds).map((v) => v.toLowerCase());
  const parts = (r: ApiRecord) => ownView(r, matchSchedules(recordsIn(i.schedules), recordsIn(r.schedules)), volumes);
  const written = ["name", "status"].filter((f) => record[f] !== i[f]);
  let after = record;
  try {
    if (written.length > 0) after = await policyCall("PATCH", i, id, "item", Object.fromEntries(written.map((f) => [f, i[f]])));
  } catch (err) {
    // Recorded with its parts, so the next `up` knows the schedules and volumes its POST made as the stack's.
    throw new PartialCreateError(
      `${what} was created (id ${id}) but setting its name failed, so its name still carries the create mark (cims-create-...): ` +
        `${messageOf(err)}. It is recorded in the stack; the next \`pulumi up\` sets the name`,
      id,
      { ...i, ...landed(i, record, parts(record)) },
    );
  }
  return { id, outs: landed(i, after, parts(after)) };
}

/**
 * After a POST whose answer was lost: the policy whose name carries this create's mark, looked
 * for until it appears, RECOVER_GRACE_MS pass (the POST may still be on its way through the
 * service) or the deadline comes, and never after the run is cancelled.
 */
async function search(what: string, i: PolicyRef, mark: string, deadline: number): Promise<ApiRecord | undefined> {
  const ends = Math.min(clock.now() + RECOVER_GRACE_MS, deadline);
  for (;;) {
    const records = await listAll(apiClient(), listPath(i)).catch((err: unknown) => {
      log(`${what}: looking for the policy its create may have made: ${messageOf(err)}`);
      return [];
    });
    const mine = records.find((r) => nameMark(r.name)?.mark === mark && !isClaimed(String(r.id)));
    if (mine) return mine;
    if (clock.now() + LOOK_EVERY_MS > ends || cancelSignal().aborted) return undefined;
    await clock.sleep(LOOK_EVERY_MS, cancelSignal()).catch(() => undefined);
  }
}

/** POST the policy with a mark in its name; a lost answer is recovered by that mark, or fails saying how to find the policy. */
export async function createMarked(what: string, i: PolicyRef, body: ApiRecord, landed: Landed): Promise<{ id: string; outs: Inputs }> {
  const mark = newNameMark(resourceUrn());
  const { deadline } = deadlineFor("create", i);
  let record: ApiRecord;
  try {
    record = await apiClient().record("POST", listPath(i), {
      body: { ...body, name: markedName(i.name, mark) },
      query: { need_volumes: true },
    });
  } catch (err) {
    if (!(err instanceof CimsError) || !mayHaveActed(err)) throw err;
    const found = await search(what, i, mark, deadline);
    if (found) {
      log(`${what}: the answer to its create was lost; snapshot policy ${String(found.id)} carries the create's mark: recorded`);
      return land(what, i, found, landed);
    }
    throw inContext(
      what,
      err,
      `The service may have created ${what}; it is not in the stack. GET ${listPath(i)} lists the scope's policies: it would be ` +
        `named "${markedName(i.name, mark)}". While it exists, the next \`pulumi up\` makes no second policy of this name: adopt it ` +
        `by setting \`importId: <its id>\` on this resource, or delete it`,
    );
  }
  return land(what, i, record, landed);
}
