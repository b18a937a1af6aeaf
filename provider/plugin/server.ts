// `pulumi-resource-cims`: the kinds' provider methods (the same objects the dynamic face
// installs) served as a Pulumi resource provider plugin, with types `cims:index:<Kind>`.
//
// Our own handler rather than @pulumi/pulumi/provider's main(), whose server (3.248) crashes
// on Read without properties (what an import sends), ignores Configure's request (stack config
// would never reach the methods), hands secrets over as wrappers and drops detailed diffs.
// Here: Configure reads the `cims:` config (secrets arrive plain: the plugin does not accept
// secrets, so the engine marks the same-named outputs secret again itself); Read with no
// properties is an import (import.ts); Diff says which fields change, and whether the old
// resource must go first; a create that made something it could not finish is recorded
// (the partial-failure detail the engine knows); CheckConfig and DiffConfig judge the provider's
// own arguments before it is configured (provider-config.ts). GetSchema answers the package's
// committed schema.json, read once at start-up: `npm run gen` writes it, package.json ships it.
import { AsyncLocalStorage } from "node:async_hooks";
import { isDeepStrictEqual } from "node:util";
import type * as grpcTypes from "@grpc/grpc-js";
import type * as pb from "@pulumi/pulumi/proto/provider_pb";
import {
  cancelOperations,
  redactError,
  redactText,
  setConfig,
  setLogSink,
  setResourceUrn,
  type Severity,
  traceFailure,
  withEngineTimeout,
} from "../methods/context";
import type { KindDiff } from "../methods/diff";
import type { Kind } from "../kinds/registry";
import { isKind, kind } from "../kinds/registry";
import { PartialCreateError } from "../methods/resource-errors";
import { importRead } from "./import";
import { type ConfigChange, checkConfig, diffConfig } from "./provider-config";
import { anypb, emptypb, enginePb, engineRpc, grpc, pluginPb, providerPb, providerRpc, statusPb } from "../proto";
import { fromStruct, toStruct } from "./values";
import { VERSION } from "../version";
import { TERRAFORM_PROVIDER, terraformMapping } from "./mapping";
import { LookupError, runLookup } from "../lookups/run";
import { isLookupName } from "../../api/lookups";
import { messageOf } from "../../api/messages";

/**
 * The package schema, as `npm run gen` wrote it: required by the package's name, as
 * ../version.ts reads package.json, so the plugin's tarball bundles the same file.
 */
const SCHEMA = JSON.stringify(require("pulumi-cims/schema.json"));

type Call<Req> = grpcTypes.ServerUnaryCall<Req, unknown>;
type Done = grpcTypes.sendUnaryData<unknown>;

/** The resource the current call is for: where its progress lines go. */
const current = new AsyncLocalStorage<{ urn: string }>();

/**
 * `cims:index:Subnet` -> `Subnet`; anything else is no kind of ours. A URN's qualified type
 * names the parents' types first (`acme:net:Net$cims:index:Subnet`): the resource's is the last.
 */
function kindOf(urnOrType: string): Kind {
  const qualified = urnOrType.includes("::") ? urnOrType.split("::")[2] : urnOrType;
  const type = qualified.slice(qualified.lastIndexOf("$") + 1);
  const name = /^cims:index:([A-Za-z]+)$/.exec(type)?.[1];
  if (!name || !isKind(name)) throw new Error(`pulumi-resource-cims ${VERSION} has no resource type "${type}"`);
  return name;
}

/** A failure as gRPC says it; a partial create carries its id and properties, so the engine records the resource. */
function failure(thrown: unknown): grpcTypes.ServiceError {
  const err = redactError(thrown);
  const message = messageOf(err);
  const metadata = new grpc.Metadata();
  if (err instanceof PartialCreateError) {
    const detail = new providerPb.ErrorResourceInitFailed();
    detail.setId(err.id);
    detail.setProperties(toStruct(err.properties));
    detail.setReasonsList(err.reasons);
    const any = new anypb.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusPb.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code: grpc.status.UNKNOWN, details: message, metadata });
}

/** Runs a request's work for its resource, answering its result or its failure. */
function serve<Req>(urn: (req: Req) => string, work: (req: Req) => Promise<unknown>) {
  return (call: Call<Req>, done: Done) => {
    current.run({ urn: urn(call.request) }, () =>
      work(call.request).then(
        (reply) => done(null, reply),
        (err: unknown) => {
          const answer = failure(err);
          void traceFailure(err).finally(() => done(answer));
        },
      ),
    );
  };
}

const CONFIG_CHANGE: Record<ConfigChange, pb.PropertyDiff.Kind> = {
  add: providerPb.PropertyDiff.Kind.ADD,
  delete: providerPb.PropertyDiff.Kind.DELETE,
  update: providerPb.PropertyDiff.Kind.UPDATE,
};

/** The detailed diff: each changed field, an update in place or one that replaces. */
/** A Check's answer: the inputs to go on with and each failure (one with no property is shown without a value). */
function checkResponse(inputs: ReturnType<typeof toStruct>, failures: Array<{ property: string; reason: string }>): pb.CheckResponse {
  const resp = new providerPb.CheckResponse();
  resp.setInputs(inputs);
  for (const f of failures) {
    const failure = new providerPb.CheckFailure();
    if (f.property) failure.setProperty(f.property);
    failure.setReason(redactText(f.reason));
    resp.addFailures(failure);
  }
  return resp;
}

/**
 * The new inputs with each top-level field `ignoreChanges` names set to the state's value
 * (`olds`: the outputs Diff and Update compare). The engine gives such a field its old input
 * value; where the state's output differs from it, the field would still be a change, which
 * Update would write. (The dynamic face is not told which fields are ignored.)
 */
function ignoring(olds: Record<string, unknown>, news: Record<string, unknown>, ignored: string[]): Record<string, unknown> {
  const out = { ...news };
  for (const name of ignored) if (/^\w+$/.test(name) && Object.hasOwn(olds, name)) out[name] = olds[name];
  return out;
}

function detailedDiff(result: KindDiff): pb.DiffResponse {
  const resp = new providerPb.DiffResponse();
  const replaces = result.replaces ?? [];
  const map = resp.getDetaileddiffMap();
  for (const name of result.diffs) {
    const d = new providerPb.PropertyDiff();
    d.setKind(replaces.includes(name) ? providerPb.PropertyDiff.Kind.UPDATE_REPLACE : providerPb.PropertyDiff.Kind.UPDATE);
    d.setInputdiff(true);
    map.set(name, d);
  }
  resp.setDiffsList(result.diffs);
  resp.setHasdetaileddiff(true);
  return resp;
}

/** Read: an import or a `get` by the id, a refresh from the recorded state (the kind's read). */
async function readResource(req: pb.ReadRequest): Promise<pb.ReadResponse> {
  const type = kindOf(req.getUrn());
  const resp = new providerPb.ReadResponse();
  const props = fromStruct(req.getProperties());
  // An import sends no properties; a `get` sends what the program gave (a state, often
  // none) as both its inputs and its properties, where a refresh sends what was recorded.
  // Either is read by the id, with the scope the id, that state or the config gives.
  // (A refresh's inputs hold fewer fields than its properties, so the sizes settle most
  // reads without converting the inputs.)
  const get =
    req.hasInputs() &&
    req.getInputs()?.getFieldsMap().getLength() === req.getProperties()?.getFieldsMap().getLength() &&
    isDeepStrictEqual(fromStruct(req.getInputs()), props);
  if (!req.hasProperties() || get) {
    const imported = await importRead(type, req.getId(), get ? "read" : "import", props);
    resp.setId(imported.id);
    resp.setProperties(toStruct(imported.properties));
    resp.setInputs(toStruct(imported.inputs));
    return resp;
  }
  const result = await kind(type).methods.read(req.getId(), props);
  resp.setId(result.id ?? "");
  resp.setProperties(toStruct(result.props));
  if (result.inputs) resp.setInputs(toStruct(result.inputs));
  return resp;
}

const SEVERITY: Record<Severity, enginePb.LogSeverity> = {
  info: enginePb.LogSeverity.INFO,
  warning: enginePb.LogSeverity.WARNING,
  debug: enginePb.LogSeverity.DEBUG,
};

/** The provider's own calls: its info, its schema, its configuration. */
function providerHandlers() {
  return {
    getPluginInfo: (_call: Call<unknown>, done: Done) => done(null, new pluginPb.PluginInfo().setVersion(VERSION)),

    getSchema: (call: Call<pb.GetSchemaRequest>, done: Done) => {
      if (call.request.getVersion() !== 0) return done(new Error(`unsupported schema version ${call.request.getVersion()}`));
      done(null, new providerPb.GetSchemaResponse().setSchema(SCHEMA));
    },

    // Pulumi's converters ask for the Terraform types this provider stands in for (mapping.ts).
    getMapping: (call: Call<pb.GetMappingRequest>, done: Done) => {
      const answer = new providerPb.GetMappingResponse();
      const wanted = call.request.getProvider();
      if (call.request.getKey() !== "terraform" || (wanted !== "" && wanted !== TERRAFORM_PROVIDER)) return done(null, answer);
      done(null, answer.setProvider(TERRAFORM_PROVIDER).setData(Buffer.from(JSON.stringify(terraformMapping(VERSION)))));
    },
    getMappings: (call: Call<pb.GetMappingsRequest>, done: Done) =>
      done(null, new providerPb.GetMappingsResponse().setProvidersList(call.request.getKey() === "terraform" ? [TERRAFORM_PROVIDER] : [])),

    // The provider's inputs come back as they came: unchanged, the engine's secret wrapping and all.
    checkConfig: serve(
      (req: pb.CheckRequest) => req.getUrn(),
      async (req) => {
        return checkResponse(req.getNews() ?? toStruct({}), checkConfig(req.getUrn(), fromStruct(req.getNews())));
      },
    ),

    // Which settings change, so the preview names them; never a replacement (provider-config.ts).
    diffConfig: serve(
      (req: pb.DiffRequest) => req.getUrn(),
      async (req) => {
        const olds = fromStruct(req.hasOldInputs() ? req.getOldInputs() : req.getOlds());
        const changes = diffConfig(olds, fromStruct(req.getNews()), req.getIgnorechangesList());
        const resp = new providerPb.DiffResponse();
        const detailed = resp.getDetaileddiffMap();
        for (const [key, change] of changes) {
          detailed.set(key, new providerPb.PropertyDiff().setKind(CONFIG_CHANGE[change]).setInputdiff(true));
        }
        resp.setDiffsList([...changes.keys()]);
        resp.setHasdetaileddiff(true);
        resp.setChanges(changes.size > 0 ? providerPb.DiffResponse.DiffChanges.DIFF_SOME : providerPb.DiffResponse.DiffChanges.DIFF_NONE);
        return resp;
      },
    ),

    configure: (call: Call<pb.ConfigureRequest>, done: Done) => {
      // `cims:config:<key>` holds the stack's `cims:<key>` (a secret in plain text).
      const variables = call.request.getVariablesMap();
      setConfig((key) => variables.get(key.replace(/^cims:/, "cims:config:")));
      const resp = new providerPb.ConfigureResponse();
      resp.setAcceptsecrets(false);
      resp.setAcceptresources(false);
      resp.setSupportspreview(false);
      resp.setAcceptoutputs(false);
      done(null, resp);
    },
  };
}

/**
 * Invoke: a lookup (`cims:index:get<Name>`, ../lookups/run.ts). What the program asked wrongly,
 * or a filter that found none or several records, is answered as the call's failure with the
 * argument it is about, which the engine shows as the program's error; anything else fails the call.
 */
async function invoke(req: pb.InvokeRequest): Promise<pb.InvokeResponse> {
  const name = /^cims:index:(\w+)$/.exec(req.getTok())?.[1];
  if (!name || !isLookupName(name)) throw new Error(`pulumi-resource-cims ${VERSION} has no function "${req.getTok()}"`);
  const resp = new providerPb.InvokeResponse();
  try {
    resp.setReturn(toStruct(await runLookup(name, fromStruct(req.getArgs()))));
  } catch (err) {
    if (!(err instanceof LookupError)) throw err;
    const failure = new providerPb.CheckFailure();
    failure.setProperty(err.property ?? "");
    failure.setReason(redactText(err.message));
    resp.addFailures(failure);
  }
  return resp;
}

/** The resources' calls, each to its kind's methods. */
function resourceHandlers() {
  return {
    check: serve(
      (req: pb.CheckRequest) => req.getUrn(),
      async (req) => {
        const result = await kind(kindOf(req.getUrn())).methods.check(fromStruct(req.getOlds()), fromStruct(req.getNews()));
        return checkResponse(toStruct(result.inputs), result.failures ?? []);
      },
    ),

    diff: serve(
      (req: pb.DiffRequest) => req.getUrn(),
      async (req) => {
        const type = kindOf(req.getUrn());
        const olds = fromStruct(req.getOlds());
        const news = ignoring(olds, fromStruct(req.getNews()), req.getIgnorechangesList());
        const result = await kind(type).methods.diff(req.getId(), olds, news);
        const resp = detailedDiff(result);
        resp.setChanges(result.changes ? providerPb.DiffResponse.DiffChanges.DIFF_SOME : providerPb.DiffResponse.DiffChanges.DIFF_NONE);
        resp.setReplacesList(result.replaces ?? []);
        resp.setDeletebeforereplace(result.deleteBeforeReplace ?? false);
        return resp;
      },
    ),

    create: serve(
      (req: pb.CreateRequest) => req.getUrn(),
      async (req) => {
        // `customTimeouts.create`, in seconds (0: none given).
        const result = await withEngineTimeout(req.getTimeout(), () =>
          kind(kindOf(req.getUrn())).methods.create(fromStruct(req.getProperties())),
        );
        const resp = new providerPb.CreateResponse();
        resp.setId(result.id);
        resp.setProperties(toStruct(result.outs));
        return resp;
      },
    ),

    read: serve((req: pb.ReadRequest) => req.getUrn(), readResource),

    update: serve(
      (req: pb.UpdateRequest) => req.getUrn(),
      async (req) => {
        const olds = fromStruct(req.getOlds());
        const news = ignoring(olds, fromStruct(req.getNews()), req.getIgnorechangesList());
        const result = await withEngineTimeout(req.getTimeout(), () => kind(kindOf(req.getUrn())).methods.update(req.getId(), olds, news));
        const resp = new providerPb.UpdateResponse();
        resp.setProperties(toStruct(result.outs ?? {}));
        return resp;
      },
    ),

    delete: serve(
      (req: pb.DeleteRequest) => req.getUrn(),
      async (req) => {
        await withEngineTimeout(req.getTimeout(), () =>
          kind(kindOf(req.getUrn())).methods.delete(req.getId(), fromStruct(req.getProperties())),
        );
        return new emptypb.Empty();
      },
    ),

    // SIGINT or SIGTERM of `pulumi up`: the engine waits for the calls in flight, so every wait
    // ends now; a create already made is answered as partly created, to be recorded.
    cancel: (_call: Call<unknown>, done: Done) => {
      cancelOperations();
      done(null, new emptypb.Empty());
    },
  };
}

export function providerServer(engineAddress: string | undefined): grpcTypes.UntypedServiceImplementation {
  const engine = engineAddress ? new engineRpc.EngineClient(engineAddress, grpc.credentials.createInsecure()) : undefined;
  // A create's mark names its resource (mark.ts), so a record a lost create left is known as its own.
  setResourceUrn(() => current.getStore()?.urn);
  // Progress lines go to the engine's log, under the resource they are about.
  setLogSink((line, severity) => {
    if (!engine) return;
    const req = new enginePb.LogRequest();
    req.setSeverity(SEVERITY[severity]);
    req.setMessage(line);
    req.setUrn(current.getStore()?.urn ?? "");
    return new Promise<void>((resolve) => engine.log(req, () => resolve()));
  });

  const handlers = {
    ...providerHandlers(),
    ...resourceHandlers(),
    invoke: serve(() => "", invoke),
  };
  return handlers as unknown as grpcTypes.UntypedServiceImplementation;
}

/** Serves on a free loopback port and says it on stdout's first line, as the engine expects. */
export async function servePlugin(args: string[]): Promise<void> {
  // The engine passes flags (--logtostderr, -v=N, --tracing <endpoint>) then its address.
  const positional = args.filter((a, i) => !a.startsWith("-") && args[i - 1] !== "--tracing");
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(providerRpc.ResourceProviderService, providerServer(positional.at(-1)));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  process.stdout.write(`${port}\n`);
}
