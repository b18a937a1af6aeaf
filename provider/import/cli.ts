#!/usr/bin/env node
// `cims-import`: reads what a CIMS project and region hold (subnets and bare-metal images,
// every page; the pools, policies and quota threshold named on the command line) and writes
// one TypeScript module that adopts it all (generate.ts). Flags with node:util parseArgs;
// progress on stderr, the module on stdout or --out. The API key is never printed.
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { PATHS } from "../../api/paths";
import { isUuid4 } from "../../api/net";
import { AuthenticationError, ConfigurationError, ConnectionError, NotFoundError, PermissionDeniedError } from "../client/errors";
import { CimsClient } from "../client/http";
import { listAll } from "../client/list";
import { apiPath } from "../client/path";
import { closeAllPools } from "../client/transport";
import { resolveSettings } from "../config";
import { isOwned, type OwnedDescriptor } from "../methods/descriptor";
import { type Kind, KIND_NAMES, kind } from "../kinds/registry";
import { messageOf } from "../methods/values";
import { type ApiRecord, generateModule, type ImportRecords, type Scope } from "./generate";

export const USAGE = `Usage: cims-import --project <id> --region <id> [options]

Writes a Pulumi program (one TypeScript module) that adopts what a CIMS project and region
already hold: its subnets and bare-metal images, and the load balancer pools, snapshot
policies and quota threshold you name. Every field is written as the service holds it, so
the first \`pulumi up\` of that program changes nothing.

Options:
  --project <id>     project id (required)
  --region <id>      region id (required)
  --network <uuid>   import only the subnets of this network (repeatable; default: every
                     subnet of the project and region)
  --pool <uuid>      a load balancer pool, as LbPoolSettings (repeatable)
  --policy <id>      a snapshot lifecycle policy, as SnapshotPolicyState (repeatable)
  --client <id>      the client whose quota notification threshold to import, as QuotaThreshold
  --out <file>       write the module to this file (default: standard output)
  --api-url <url>    API base URL (default: $CIMS_API_URL)
  --api-key <key>    API key (default: $CIMS_API_KEY, which keeps it out of the process list)
  -h, --help         show this help

Exit status: 0 written; 1 the service refused, nothing was found, or a named record does not
exist (nothing is written); 2 a usage error.
`;

const PROGRAM = "cims-import";

class UsageError extends Error {}
class ImportError extends Error {}

export interface Options {
  scope: Scope;
  networks: string[];
  pools: string[];
  policies: number[];
  client?: number;
  out?: string;
  apiUrl?: string;
  apiKey?: string;
}

/** Digits only: Number() would take "", "0x10" and "1e3" too. */
function positiveInteger(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag} must be an integer >= 1, got ${JSON.stringify(value)}`);
  return n;
}

function uuid(flag: string, value: string): string {
  if (!isUuid4(value)) throw new UsageError(`${flag} must be a uuid4, got ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/** The command line as options; throws UsageError. `undefined` for --help. */
export function parseOptions(argv: string[]): Options | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        project: { type: "string" },
        region: { type: "string" },
        network: { type: "string", multiple: true, default: [] },
        pool: { type: "string", multiple: true, default: [] },
        policy: { type: "string", multiple: true, default: [] },
        client: { type: "string" },
        out: { type: "string" },
        "api-url": { type: "string" },
        "api-key": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(messageOf(err));
  }
  if (values.help) return undefined;
  if (values.project === undefined || values.region === undefined) throw new UsageError("--project and --region are required");
  const dedupe = <T>(xs: T[]) => [...new Set(xs)];
  return {
    scope: { projectId: positiveInteger("--project", values.project), regionId: positiveInteger("--region", values.region) },
    networks: dedupe(values.network.map((v) => uuid("--network", v))),
    pools: dedupe(values.pool.map((v) => uuid("--pool", v))),
    policies: dedupe(values.policy.map((v) => positiveInteger("--policy", v))),
    client: values.client === undefined ? undefined : positiveInteger("--client", values.client),
    out: values.out,
    apiUrl: values["api-url"],
    apiKey: values["api-key"],
  };
}

/** The client, from the flags, else CIMS_API_URL / CIMS_API_KEY (provider/config.ts rules). */
function clientFor(options: Options, env: NodeJS.ProcessEnv, log: (line: string) => void): CimsClient {
  const present = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v);
  const apiUrl = present(options.apiUrl) ?? present(env.CIMS_API_URL);
  const apiKey = present(options.apiKey) ?? present(env.CIMS_API_KEY);
  if (apiUrl === undefined) throw new UsageError("no API URL: give --api-url <url> or set CIMS_API_URL");
  if (apiKey === undefined) throw new UsageError("no API key: set CIMS_API_KEY (or give --api-key <key>)");
  let settings;
  try {
    const flags: Record<string, string> = { apiUrl, apiKey };
    settings = resolveSettings((k) => flags[k], {});
  } catch (err) {
    if (err instanceof ConfigurationError) throw new UsageError(err.message.replace(/cims:apiUrl/g, "--api-url"));
    throw err;
  }
  return new CimsClient({ ...settings, apiKey: settings.apiKey, log });
}

/** `n subnets` in a kind's own words. */
const counted = (type: Kind, n: number) => {
  const [one, many] = kind(type).descriptor.import.nouns;
  return `${n} ${n === 1 ? one : many}`;
};

/**
 * Reads everything to import: every record of each kind that owns its records (their scope's
 * list; subnets of the named networks only, when networks are named), and the settings named
 * on the command line. Throws ImportError (with every problem) when a named record is missing
 * or nothing is found.
 */
export async function readRecords(client: CimsClient, options: Options, progress: (line: string) => void): Promise<ImportRecords> {
  const { projectId, regionId } = options.scope;
  const scope = { project_id: projectId, region_id: regionId };
  const where = `project ${projectId}, region ${regionId}`;
  const records: ImportRecords = {};

  const owned = KIND_NAMES.filter((k) => isOwned(kind(k).descriptor));
  for (const type of owned) {
    const { paths } = kind(type).descriptor as OwnedDescriptor;
    const list = apiPath(paths.list, scope);
    const found: ApiRecord[] = [];
    if (type === "Subnet" && options.networks.length > 0) {
      for (const network of options.networks) {
        const ofNetwork = await listAll(client, list, { network_id: network });
        if (ofNetwork.length === 0) progress(`no subnets in network ${network} (${where})`);
        found.push(...ofNetwork);
      }
    } else {
      found.push(...(await listAll(client, list)));
    }
    records[type] = found;
  }
  progress(`${where}: ${owned.map((k) => counted(k, records[k]!.length)).join(", ")}`);

  const missing: string[] = [];
  /** GET by id; a 404 is noted and skipped, so every missing record is named at once. */
  const read = async (path: string, what: string, key?: string): Promise<ApiRecord[]> => {
    try {
      return [await client.record("GET", path, {}, key)];
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      missing.push(what);
      return [];
    }
  };
  const named: Array<[Kind, ApiRecord[]]> = [];
  if (options.pools.length > 0) {
    const pools: ApiRecord[] = [];
    for (const id of options.pools)
      pools.push(...(await read(apiPath(PATHS.lbpool, { ...scope, pool_id: id }), `pool ${id}: not found in ${where}`)));
    named.push(["LbPoolSettings", pools]);
  }
  if (options.policies.length > 0) {
    const policies: ApiRecord[] = [];
    for (const id of options.policies)
      policies.push(...(await read(apiPath(PATHS.policy, { ...scope, policy_id: id }), `policy ${id}: not found in ${where}`)));
    named.push(["SnapshotPolicyState", policies]);
  }
  if (options.client !== undefined) {
    const thresholds = await read(
      apiPath(PATHS.notificationThreshold, { client_id: options.client }),
      `client ${options.client}: has no quota notification setting (or no such client)`,
      kind("QuotaThreshold").descriptor.recordKey,
    );
    named.push(["QuotaThreshold", thresholds]);
  }
  for (const [type, found] of named) records[type] = found;
  if (named.length > 0) progress(`read ${named.map(([type, found]) => counted(type, found.length)).join(", ")}`);

  const count = (types: readonly Kind[]) => types.reduce((n, t) => n + (records[t]?.length ?? 0), 0);
  const total = count(KIND_NAMES);
  // An unknown project or region is no error of the list calls (they answer empty), only of
  // each GET by id (404). When nothing scoped was found, ask whether the scope holds anything.
  let unknownScope = "";
  if (count(KIND_NAMES.filter((k) => k !== "QuotaThreshold")) === 0) {
    const counts = await Promise.all(
      [PATHS.subnets, PATHS.bmimages, PATHS.lbpools, PATHS.policies].map(
        async (template) => (await client.page(apiPath(template, scope), { query: { limit: 1, offset: 0 } })).count,
      ),
    );
    if (counts.every((n) => Number(n) === 0)) {
      unknownScope = `${where[0].toUpperCase()}${where.slice(1)} holds no subnets, bare-metal images, load balancer pools or snapshot policies: is it an unknown project or region? Check --project and --region.`;
    }
  }
  if (missing.length > 0) {
    throw new ImportError([`${missing.join("; ")}.`, unknownScope, "Nothing was written."].filter(Boolean).join(" "));
  }
  if (total === 0) {
    const searched = options.networks.length > 0 ? `subnets of network(s) ${options.networks.join(", ")}` : "subnets";
    throw new ImportError(
      [
        `nothing to import: searched ${where} for ${searched} and bare-metal images, and found none; no --pool, --policy or --client was named.`,
        unknownScope || (options.networks.length > 0 ? "Check --network." : ""),
        "Nothing was written.",
      ]
        .filter(Boolean)
        .join(" "),
    );
  }
  if (unknownScope) progress(`warning: ${unknownScope}`);
  return records;
}

/** A failure as one line, saying what to do; never the key (errors never hold it). */
export function describeFailure(err: unknown, options: Options | undefined, apiUrl: string | undefined): string {
  const where = options ? `project ${options.scope.projectId}, region ${options.scope.regionId}` : "the project";
  if (err instanceof AuthenticationError) {
    return `the key was refused (401 from ${apiUrl ?? "the API"}): check CIMS_API_KEY or --api-key. (${err.message})`;
  }
  if (err instanceof PermissionDeniedError) {
    return `the key may not read ${where} (403): use a key with access, or check --project and --region. (${err.message})`;
  }
  if (err instanceof ConnectionError) {
    return `could not reach ${apiUrl ?? "the API"}: check --api-url / CIMS_API_URL. (${err.message})`;
  }
  return messageOf(err);
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const progress = (line: string) => process.stderr.write(`${PROGRAM}: ${line}\n`);
  let options: Options | undefined;
  let client: CimsClient | undefined;
  try {
    options = parseOptions(argv);
    if (options === undefined) {
      process.stdout.write(USAGE);
      return 0;
    }
    client = clientFor(options, env, progress);
    progress(`reading project ${options.scope.projectId}, region ${options.scope.regionId} from ${client.apiUrl.href}`);
    const records = await readRecords(client, options, progress);
    const notes: string[] = [];
    const header = [
      `cims-import --project ${options.scope.projectId} --region ${options.scope.regionId}` +
        options.networks.map((n) => ` --network ${n}`).join("") +
        options.pools.map((p) => ` --pool ${p}`).join("") +
        options.policies.map((p) => ` --policy ${p}`).join("") +
        (options.client === undefined ? "" : ` --client ${options.client}`),
    ];
    const source = generateModule(records, options.scope, { header }, notes);
    for (const note of notes) progress(`note: ${note}`);
    const count = KIND_NAMES.map((type) => counted(type, records[type]?.length ?? 0)).join(", ");
    if (options.out) {
      fs.writeFileSync(options.out, source);
      progress(`${count}: wrote ${options.out}`);
    } else {
      process.stdout.write(source);
      progress(`${count}: written to standard output`);
    }
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      progress(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    progress(describeFailure(err, options, client?.apiUrl.href));
    return 1;
  } finally {
    await closeAllPools();
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
