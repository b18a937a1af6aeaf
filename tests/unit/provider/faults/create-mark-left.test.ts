// A record a lost create left (cancelled, or its answer never came, and made by its task later)
// still carries the create's mark, and no stack records it. The resource's next `up` never makes
// a second beside it: on the plugin face the mark names the resource (a digest of its URN), so
// its preview says it adopts the record and its `up` adopts it with no POST (its own, so its
// destroy deletes it); a mark that names
// no resource (the dynamic face's) fails the preview and every `up`, naming the record and how to
// adopt it, until the program adopts it (`importId`); a mark naming another resource is that
// one's, and no obstacle. In process, against the emulator; the record is seeded as the lost
// create's task leaves it (the cancel itself: tests/e2e/failures/lost-create-cancel.test.ts).
import { randomUUID } from "node:crypto";
import { setLogSink, type Severity } from "../../../../provider/methods/context";
import { CREATE_MARK_TAG, newMark, ownerKey } from "../../../../provider/methods/mark";
import { api, SEED, writes } from "../../../support/cims";
import type { Emulated } from "../../../support/faults";
import { subnetRecord } from "../../../support/records";
import { failureOf, urnOf } from "./faces";
import { withEmulatedState } from "./matrix";

const ROW_TIMEOUT_MS = 30_000;
const subnet = { name: "left-db", cidr: "10.81.0.0/24", networkId: SEED.networkId };
const LEFT = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d";

/** The warnings the provider gives from here on. */
function warnings(): string[] {
  const said: string[] = [];
  setLogSink((line: string, severity: Severity) => {
    if (severity === "warning") said.push(line);
  });
  return said;
}

/** Seeds the subnet a lost create of the program left, carrying `mark`. */
async function leftWith(env: Emulated, mark: string, over: Record<string, unknown> = {}): Promise<void> {
  const record = subnetRecord({
    id: LEFT,
    name: subnet.name,
    cidr: subnet.cidr,
    gateway_ip: "10.81.0.1",
    tags: { [CREATE_MARK_TAG]: mark },
    ...over,
  });
  expect((await api(env, "POST", "/__emulator/seed", { subnets: [record] })).status).toBe(204);
  env.emulator.metrics.reset();
}

const subnetTags = (env: Emulated) => JSON.stringify(env.emulator.store.list("subnets").map((r) => r.tags));

describe.each(["dynamic", "native"] as const)("a record a lost create left, %s face", (face) => {
  test(
    "a create's mark names its resource where the face knows its URN (the plugin), and no resource on the dynamic face",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        // The record carries the mark from its task's end until the create removes it: seen as
        // the store is written (the up runs on virtual time, so a look on a real timer could miss it).
        const marks = new Set<string>();
        const { store } = env.emulator;
        const put = store.put.bind(store);
        store.put = (collection, record) => {
          for (const tag of (record.tags as Array<{ key: string; value: string }> | undefined) ?? [])
            if (collection === "subnets" && tag.key === CREATE_MARK_TAG) marks.add(tag.value);
          put(collection, record);
        };
        try {
          await state.up(subnet.name, subnet);
        } finally {
          store.put = put;
        }
        expect(marks.size).toBe(1);
        const [mark] = [...marks];
        if (face === "native") expect(mark).toMatch(new RegExp(`^[0-9a-f-]{36}\\.${ownerKey(urnOf("Subnet"))}$`));
        else expect(mark).toMatch(/^[0-9a-f-]{36}$/);
        expect(subnetTags(env)).not.toContain(CREATE_MARK_TAG);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "its mark names no resource: the preview and every up fail naming it and how to adopt it, with no write; with importId the up adopts it",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        await leftWith(env, randomUUID());
        for (const run of [
          () => state.changes(subnet.name, subnet),
          () => state.up(subnet.name, subnet),
          () => state.up(subnet.name, subnet),
        ]) {
          const failure = await run().then(() => undefined, failureOf);
          expect(failure?.message).toContain(`subnet ${LEFT} of this name still carries the create mark ${CREATE_MARK_TAG}`);
          expect(failure?.message).toContain(`makes no other subnet of this name while it exists`);
          expect(failure?.message).toContain(`adopt it by setting \`importId: "${LEFT}"\` on this resource; otherwise delete it`);
        }
        expect(writes(env)).toEqual([]);
        expect(state.ids()).toEqual([]);
        await state.up(subnet.name, { ...subnet, importId: LEFT });
        expect(state.ids()).toEqual([LEFT]);
        expect(env.emulator.store.list("subnets").filter((r) => r.name === subnet.name)).toHaveLength(1);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "a record carrying a mark a create of this process sent is that create under way, not one left: neither taken nor an obstacle",
    () =>
      withEmulatedState("Subnet", face, async (env, state) => {
        // As a sibling's record is between its task's end and its create's look at it.
        await leftWith(env, newMark(face === "native" ? urnOf("Subnet") : undefined), { cidr: "10.84.0.0/24", gateway_ip: "10.84.0.1" });
        await state.up(subnet.name, subnet);
        expect(state.ids()).not.toContain(LEFT);
        expect(writes(env).filter((w) => w.startsWith("POST "))).toHaveLength(1);
      }),
    ROW_TIMEOUT_MS,
  );
});

describe("a record a lost create left, plugin face (the mark names the resource)", () => {
  test(
    "this resource's: the preview says it adopts it; the up adopts it with no POST and removes the mark; a preview after shows no change",
    () =>
      withEmulatedState("Subnet", "native", async (env, state) => {
        await leftWith(env, `${randomUUID()}.${ownerKey(urnOf("Subnet"))}`);
        const said = warnings();
        expect(await state.changes(subnet.name, subnet)).toBe(true);
        expect(said).toEqual([
          `cims: Subnet "${subnet.name}": adopts subnet ${LEFT} left by this resource's cancelled create (it carries this resource's create mark ${CREATE_MARK_TAG}); \`pulumi up\` makes no other subnet`,
        ]);
        await state.up(subnet.name, subnet);
        expect(state.ids()).toEqual([LEFT]);
        expect(writes(env).filter((w) => w.startsWith("POST "))).toEqual([]);
        expect(env.emulator.store.list("subnets").filter((r) => r.name === subnet.name)).toHaveLength(1);
        expect(subnetTags(env)).not.toContain(CREATE_MARK_TAG);
        expect(await state.changes(subnet.name, subnet)).toBe(false);
        // Its own create made it: not adopted, so its destroy deletes it.
        expect(state.resources.get(subnet.name)?.outs).toMatchObject({ adopted: false });
        expect(state.resources.get(subnet.name)?.outs).not.toHaveProperty("importId");
        env.emulator.metrics.reset();
        await state.destroy(subnet.name);
        expect(writes(env)).toEqual(["DELETE /cloud/v1/subnets/:project_id/:region_id/:subnet_id 200 x1"]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "this resource's, but a field that cannot change in place differs: the preview and the up fail saying so, with no write",
    () =>
      withEmulatedState("Subnet", "native", async (env, state) => {
        await leftWith(env, `${randomUUID()}.${ownerKey(urnOf("Subnet"))}`, { cidr: "10.82.0.0/24", gateway_ip: "10.82.0.1" });
        for (const run of [() => state.changes(subnet.name, subnet), () => state.up(subnet.name, subnet)]) {
          const failure = await run().then(() => undefined, failureOf);
          expect(failure?.message).toContain(`subnet ${LEFT}, left by this resource's cancelled create`);
          expect(failure?.message).toContain(`has cidr "10.82.0.0/24" (the program: "10.81.0.0/24"), which cannot change in place`);
        }
        expect(writes(env)).toEqual([]);
      }),
    ROW_TIMEOUT_MS,
  );

  test(
    "another resource's (its mark names another URN): not taken, and no obstacle: the up makes this resource's own",
    () =>
      withEmulatedState("Subnet", "native", async (env, state) => {
        await leftWith(env, `${randomUUID()}.${ownerKey("urn:pulumi:other::faults::cims:index:Subnet::row")}`, {
          cidr: "10.83.0.0/24",
          gateway_ip: "10.83.0.1",
        });
        await state.up(subnet.name, subnet);
        expect(state.ids()).not.toContain(LEFT);
        expect(writes(env).filter((w) => w.startsWith("POST "))).toHaveLength(1);
        expect(subnetTags(env)).toContain(CREATE_MARK_TAG);
      }),
    ROW_TIMEOUT_MS,
  );
});
