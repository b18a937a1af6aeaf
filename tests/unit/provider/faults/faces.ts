// A kind's provider, in this process, as the engine calls it on either face: the dynamic face
// through the door its serialized provider opens (resources/install.ts, with the stack's
// config), the plugin face through its gRPC handlers (Configure, then Check, Diff, Create,
// Read, Update, Delete with Structs). A failure comes back as the engine gets it: its message,
// and for a create that made something, the id and properties the engine records.
import { isDeepStrictEqual } from "node:util";
import type * as pulumi from "@pulumi/pulumi";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import type { Kind } from "../../../../provider/kinds/registry";
import { setLogSink } from "../../../../provider/methods/context";
import type { Methods } from "../../../../provider/methods/install";
import { grpc, providerPb, statusPb } from "../../../../provider/proto";
import { providerServer } from "../../../../provider/plugin/server";
import { fromStruct, toStruct } from "../../../../provider/plugin/values";
import { install } from "../../../../provider/resources/install";

export type Props = Record<string, unknown>;
export type FaceName = "dynamic" | "native";

/** The calls the engine makes of a resource's provider. */
export interface Provider {
  /** Check's inputs; a check failure throws. */
  check(olds: Props, news: Props): Promise<Props>;
  /** Whether the diff has changes. */
  diff(id: string, olds: Props, news: Props): Promise<boolean>;
  /** Whether the diff asks that a replacement delete the old resource first (what the engine reads from it). */
  deleteFirst(id: string, olds: Props, news: Props): Promise<boolean>;
  /**
   * The top-level properties a preview shows changed: the plugin's detailed diff; for a
   * dynamic resource, whose provider gives none, the engine's own comparison of the inputs
   * recorded (`oldInputs`) with the program's.
   */
  shown(id: string, olds: Props, news: Props, oldInputs: Props): Promise<string[]>;
  create(inputs: Props): Promise<{ id: string; outs: Props }>;
  update(id: string, olds: Props, news: Props): Promise<Props>;
  /** An empty id: the record is gone. */
  read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }>;
  delete(id: string, props: Props): Promise<void>;
}

/** A failure as the engine receives it: a partly created resource carries its id and properties. */
export interface Failure {
  message: string;
  id?: string;
  properties?: Props;
}

/** The provider of `kind` on `face`, configured with the stack's `cims:` config. */
export function providerOn(face: FaceName, kind: Kind, config: Record<string, string>): Promise<Provider> {
  return face === "dynamic" ? dynamicFace(kind, config) : pluginFace(kind, config);
}

const failedChecks = (failures: ReadonlyArray<{ property?: string; reason: string }>) =>
  new Error(`check failed: ${failures.map((f) => `${f.property ?? ""}: ${f.reason}`).join("; ")}`);

async function dynamicFace(kind: Kind, config: Record<string, string>): Promise<Provider> {
  const target: Partial<Methods> = {};
  const stackConfig: pulumi.dynamic.Config = {
    get: (key) => config[key],
    require: (key) => config[key] ?? "",
  };
  await install(target, kind, { config: stackConfig });
  // Progress lines, which the engine shows, are not under test here.
  setLogSink(() => undefined);
  const methods = target as Methods;
  return {
    async check(olds, news) {
      const result = await methods.check(olds, news);
      if (result.failures?.length) throw failedChecks(result.failures);
      return result.inputs ?? {};
    },
    diff: async (id, olds, news) => (await methods.diff(id, olds, news)).changes === true,
    // The dynamic-provider host passes the DiffResult's deleteBeforeReplace on when it is true.
    deleteFirst: async (id, olds, news) => (await methods.diff(id, olds, news)).deleteBeforeReplace === true,
    async shown(_id, _olds, news, oldInputs) {
      const keys = new Set([...Object.keys(oldInputs), ...Object.keys(news)]);
      return [...keys].filter((k) => !isDeepStrictEqual(oldInputs[k], news[k])).sort();
    },
    async create(inputs) {
      const { id, outs } = await methods.create(inputs);
      return { id, outs: outs ?? {} };
    },
    update: async (id, olds, news) => (await methods.update(id, olds, news)).outs ?? {},
    async read(id, props) {
      const result = await methods.read(id, props);
      return { id: result.id ?? "", props: result.props ?? {}, inputs: result.inputs };
    },
    delete: (id, props) => methods.delete(id, props),
  };
}

/** The URN the plugin face's calls name (one resource per kind, `row`). */
export const urnOf = (kind: Kind): string => `urn:pulumi:test::faults::cims:index:${kind}::row`;

type Handler = (call: { request: unknown }, done: (err: unknown, reply: unknown) => void) => void;

async function pluginFace(kind: Kind, config: Record<string, string>): Promise<Provider> {
  const handlers = providerServer(undefined) as unknown as Record<string, Handler>;
  const call = <T>(name: string, request: unknown): Promise<T> =>
    new Promise((resolve, reject) => handlers[name]({ request }, (err, reply) => (err ? reject(err) : resolve(reply as T))));
  const configure = new providerPb.ConfigureRequest();
  for (const [key, value] of Object.entries(config)) configure.getVariablesMap().set(key.replace(/^cims:/, "cims:config:"), value);
  await call("configure", configure);
  const urn = urnOf(kind);
  const diffOf = (id: string, olds: Props, news: Props) =>
    call<pb.DiffResponse>("diff", new providerPb.DiffRequest().setUrn(urn).setId(id).setOlds(toStruct(olds)).setNews(toStruct(news)));
  return {
    async check(olds, news) {
      const req = new providerPb.CheckRequest().setUrn(urn).setOlds(toStruct(olds)).setNews(toStruct(news));
      const resp = await call<pb.CheckResponse>("check", req);
      const failures = resp.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
      if (failures.length) throw failedChecks(failures);
      return fromStruct(resp.getInputs());
    },
    async diff(id, olds, news) {
      return (await diffOf(id, olds, news)).getChanges() === providerPb.DiffResponse.DiffChanges.DIFF_SOME;
    },
    deleteFirst: async (id, olds, news) => (await diffOf(id, olds, news)).getDeletebeforereplace(),
    async shown(id, olds, news) {
      const keys = [...(await diffOf(id, olds, news)).getDetaileddiffMap().keys()];
      return [...new Set(keys.map((k) => k.split(/[.[]/)[0]))].sort();
    },
    async create(inputs) {
      const resp = await call<pb.CreateResponse>("create", new providerPb.CreateRequest().setUrn(urn).setProperties(toStruct(inputs)));
      return { id: resp.getId(), outs: fromStruct(resp.getProperties()) };
    },
    async update(id, olds, news) {
      const req = new providerPb.UpdateRequest().setUrn(urn).setId(id).setOlds(toStruct(olds)).setNews(toStruct(news));
      return fromStruct((await call<pb.UpdateResponse>("update", req)).getProperties());
    },
    async read(id, props) {
      const req = new providerPb.ReadRequest().setUrn(urn).setId(id).setProperties(toStruct(props));
      const resp = await call<pb.ReadResponse>("read", req);
      return {
        id: resp.getId(),
        props: fromStruct(resp.getProperties()),
        inputs: resp.hasInputs() ? fromStruct(resp.getInputs()) : undefined,
      };
    },
    async delete(id, props) {
      await call("delete", new providerPb.DeleteRequest().setUrn(urn).setId(id).setProperties(toStruct(props)));
    },
  };
}

/**
 * What the engine takes from a failure: the message, and for a resource created but not
 * initialised (the dynamic host reads the error's id and properties; the plugin packs them
 * into the gRPC status's details) what it records.
 */
export function failureOf(err: unknown): Failure {
  if (!(err instanceof Error)) return { message: String(err) };
  if ("metadata" in err && err.metadata instanceof grpc.Metadata) {
    const [bin] = err.metadata.get("grpc-status-details-bin");
    const [detail] = bin instanceof Buffer ? statusPb.Status.deserializeBinary(bin).getDetailsList() : [];
    if (!detail) return { message: err.message };
    const init = providerPb.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
    return { message: err.message, id: init.getId(), properties: fromStruct(init.getProperties()) };
  }
  const partial = err as Error & { id?: unknown; properties?: Props };
  return typeof partial.id === "string"
    ? { message: err.message, id: partial.id, properties: partial.properties ?? {} }
    : { message: err.message };
}
