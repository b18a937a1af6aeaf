// What `npm run bench` deploys, by `bench:mode`:
//   cims  - `bench:count` Subnets of this package (POST, wait for the task, GET)
//   plugin - the same Subnets through the plugin face (`cims.native.Subnet`, served by
//           `pulumi-resource-cims`; bench/stack-runs.ts points the project at it)
//   floor - `bench:count` no-op dynamic resources that sleep `bench:taskMs`: the engine's
//           floor for the same work, with nothing of ours in it; with `bench:like` (a
//           Subnet's recorded state, see below) each also holds the same data as a Subnet;
//           with `bench:updates` true its provider also updates, sleeping as a create does
// `bench:changed` K (both modes): the first K resources take another name, so an `up` after
// the first updates K of them in place (a Subnet's name updates in place).
//   naive - one dynamic resource whose provider closes over undici's `request` imported at
//           module top level, as a first dynamic provider often does
//   naive-size - the size of that provider's serialized `__provider`, as the engine's closure
//           serializer writes it: the contrast to our thin shim
import { appendFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as cims from "pulumi-cims";
import * as undici from "undici";

const config = new pulumi.Config("bench");
const mode = config.require("mode");
const count = config.requireNumber("count");
const taskMs = config.getNumber("taskMs") ?? 0;

/**
 * `bench:like`: a Subnet's recorded inputs and outputs (JSON), so that each floor resource
 * holds the same data as a Subnet: its inputs are the Subnet's inputs, and its create answers
 * the Subnet's outputs (the fields only outputs hold come from this closure). The engine's work
 * per resource (gRPC, diffs, its event copies, the state file) grows with the values a resource
 * holds: 3 values of the bare floor against a Subnet's 30-odd.
 */
const like = JSON.parse(config.get("like") ?? "null") as { inputs: Record<string, unknown>; outputs: Record<string, unknown> } | null;
const outputsOnly = Object.fromEntries(Object.entries(like?.outputs ?? {}).filter(([k]) => !(k in (like?.inputs ?? {}))));
const inputKeys = Object.keys(like?.inputs ?? {});

/**
 * `BENCH_FLOOR_MARKS` (a file, in the command's environment): each floor create and delete
 * appends when it began and ended (epoch ms), so the bench can tell the engine's own start
 * and finish, before the first resource's work and after the last's, from that work.
 */
function mark(began: number): void {
  const file = process.env.BENCH_FLOOR_MARKS;
  if (file) appendFileSync(file, `${began} ${Date.now()}\n`);
}

const bareFloor: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const began = Date.now();
    await new Promise((resolve) => setTimeout(resolve, inputs.sleepMs));
    mark(began);
    return { id: inputs.name, outs: { ...outputsOnly, ...inputs } };
  },
  // Refresh's floor: the engine's round trip per resource, with no request behind it; with
  // `bench:like`, inputs come back too, as a Subnet's read answers them.
  async read(id, props) {
    if (inputKeys.length === 0) return { id, props };
    const inputs = Object.fromEntries(["name", "sleepMs", ...inputKeys].map((k) => [k, props[k]]));
    return { id, props, inputs };
  },
  async delete() {
    mark(Date.now());
  },
};

/**
 * With `bench:updates` the floor updates as it creates (a sleep of the task's length), for the
 * `up` that changes K resources. Only then: the engine stores the provider's text with every
 * resource, so the other rows' floor keeps the text, and the state size, it always had.
 */
const floorProvider: pulumi.dynamic.ResourceProvider = config.getBoolean("updates")
  ? {
      ...bareFloor,
      async update(_id, _olds, news) {
        const began = Date.now();
        await new Promise((resolve) => setTimeout(resolve, news.sleepMs));
        mark(began);
        return { outs: { ...outputsOnly, ...news } };
      },
    }
  : bareFloor;

const request = undici.request;
const naiveProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    const res = await request(inputs.url);
    await res.body.dump();
    return { id: "naive", outs: { status: res.statusCode } };
  },
};

class Floor extends pulumi.dynamic.Resource {
  constructor(name: string, props: { name: string; sleepMs: number; [same: string]: unknown }) {
    super(floorProvider, name, props, {}, "bench", "Floor");
  }
}

class Naive extends pulumi.dynamic.Resource {
  constructor(name: string, props: { url: string }) {
    super(naiveProvider, name, props, {}, "bench", "Naive");
  }
}

/** 10.<100+i/256>.<i%256>.0/24: a distinct /24 per subnet on the seeded network. */
const cidrOf = (i: number) => `10.${100 + Math.floor(i / 256)}.${i % 256}.0/24`;

// `bench:scopes` 2: every other subnet goes to the seed's second network (project 2, region 3).
const scopes = config.getNumber("scopes") ?? 1;
const SECOND_SCOPE = { networkId: "6f1c2a3b-8d4e-4f5a-b6c7-d8e9f0a1b2c3", projectId: 2, regionId: 3 };

const changed = config.getNumber("changed") ?? 0;
/** The name of resource i: the first `bench:changed` of them renamed. */
const nameOf = (prefix: string, i: number) => (i < changed ? `${prefix}-${i}-changed` : `${prefix}-${i}`);

export const ids: pulumi.Output<string>[] = [];
for (let i = 0; i < count; i++) {
  if (mode === "cims" || mode === "plugin") {
    const where = scopes === 2 && i % 2 === 1 ? SECOND_SCOPE : { networkId: config.require("networkId") };
    const Subnet = mode === "cims" ? cims.Subnet : cims.native.Subnet;
    ids.push(new Subnet(`s${i}`, { name: nameOf("bench", i), cidr: cidrOf(i), ...where }).id);
  } else if (mode === "floor") {
    ids.push(new Floor(`f${i}`, { ...like?.inputs, name: nameOf("floor", i), sleepMs: taskMs }).id);
  } else if (mode === "naive") {
    ids.push(new Naive(`n${i}`, { url: config.require("url") }).id);
  } else if (mode === "naive-size") {
    // The naive provider as the engine's own closure serializer writes it into __provider
    // (deploying it fails: see bench/scenarios/naive.ts), measured without deploying.
  } else {
    throw new Error(`bench:mode must be cims, plugin, floor, naive or naive-size, not ${mode}`);
  }
}

export const naiveProviderBytes =
  mode === "naive-size"
    ? pulumi.runtime.serializeFunction(() => naiveProvider, { allowSecrets: true }).then((f) => Buffer.byteLength(f.text))
    : undefined;
