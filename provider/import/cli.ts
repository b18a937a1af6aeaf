#!/usr/bin/env node
// `cims-import`: reads what a CIMS project and region hold (subnets and bare-metal images,
// every page; the pools, policies and quota threshold named on the command line) and writes
// one program that adopts it all (generate.ts), in TypeScript, YAML, Python or Go (--language). Flags with node:util parseArgs;
// progress on stderr, the module on stdout or --out. The API key is never printed.
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { isUuid4 } from "../../api/net";
import { AuthenticationError, ConfigurationError, ConnectionError, NotFoundError, PermissionDeniedError } from "../client/errors";
import { CimsClient } from "../client/http";
import { MIN_REDACTED_KEY_LENGTH, tooShortToRedact } from "../client/redact";
import { listAll } from "../client/list";
import { apiPath } from "../client/path";
import { closeAllPools } from "../client/transport";
import { CONFIG_TABLE, type IgnoreTags, resolveSettings } from "../config";
import { isOwned } from "../methods/descriptor";
import { operation } from "../../api/contract";
import { type Kind, KIND_NAMES, kind } from "../kinds/registry";
import { generateModule, type ImportRecords, type Language, LANGUAGES, type Omission, type Scope } from "./generate";
import { goneLine, importFromTerraform, skippedLine } from "./from-terraform";
import { GO_SDK_PACKAGE } from "./render";
import { visible } from "./quote";
import { readTerraformState, TerraformStateError } from "./terraform";
import { messageOf } from "../../api/messages";
import type { ApiRecord } from "../../api/guards";

const rows = () => KIND_NAMES.map((type) => ({ type, row: kind(type).descriptor.import }));
/** The kinds cims-import lists in the scope (those owning their records), and those the user names by a flag. */
// A kind whose records live under another record (a pool's members) is not listed by scope.
/** A kind under a parent (a pool's members) is listed per parent, which cims-import does not do. */
const underParent = (k: Kind) => kind(k).descriptor.importIdParts !== undefined;
/** A kind whose records the provider creates (its contract has a create call) is listed: the scope's records are each one. */
const listPathOf = (k: Kind): string | undefined => {
  const contract = kind(k).descriptor.contract;
  return operation(contract, "create") ? operation(contract, "list")?.template : undefined;
};
const listedKinds = () => KIND_NAMES.filter((k) => listPathOf(k) !== undefined && !underParent(k));
/** Every kind cims-import reads: listed in the scope, or named by a flag. */
const importedKinds = () => KIND_NAMES.filter((k) => listedKinds().includes(k) || kind(k).descriptor.import.named !== undefined);
const namedRows = () => rows().flatMap(({ type, row }) => (row.named ? [{ type, named: row.named }] : []));
const filterRows = () => rows().flatMap(({ type, row }) => (row.filter ? [{ type, filter: row.filter }] : []));
const many = (type: Kind) => kind(type).descriptor.import.nouns[1];
/** "a, b or c" */
const either = (words: string[], last = "or") =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} ${last} ${words.at(-1)}`;

/** One option of the help: its flag and value, then its words, continued lines under the words' column. */
const optionLine = (flag: string, help: string) => `  ${flag.padEnd(19)}${help.split("\n").join(`\n${" ".repeat(21)}`)}`;

/** Text wrapped at 90 columns. */
function wrap(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const w of text.split(" ")) {
    if (line && line.length + 1 + w.length > 90) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  return [...lines, line].join("\n");
}

export const USAGE = `Usage: cims-import --project <id> --region <id> [options]
       cims-import --from-terraform <terraform.tfstate> [--project <id> --region <id>] [options]

${wrap(
  "Writes a Pulumi program (a TypeScript module, or with --language a YAML, Python or Go program) that adopts what a CIMS project and region already hold: " +
    `its ${either(listedKinds().map(many), "and")}, and the ${either(
      namedRows().map(({ named }) => named.what),
      "and",
    )} you name. Every field is written as the service holds it, so the first \`pulumi up\` of that program changes nothing.`,
)}

${wrap(
  "With --from-terraform, the records a Terraform state (format 4, written by either generation of the vendor's provider) " +
    "names instead: each adopted as its own kind, every other resource of the state listed with why, and a record the " +
    "service answers 404 for named with the project and region it was looked for in, and left out (docs/migrate-from-terraform.md).",
)}

Options:
  --project <id>     project id (required; with --from-terraform, only for records whose
                     state names none)
  --region <id>      region id (as --project)
  --from-terraform <file>
                     adopt what this Terraform state names (\`terraform state pull\` writes it)
${[...filterRows().map(({ filter }) => optionLine(`--${filter.flag} ${filter.value}`, filter.help)), ...namedRows().map(({ named }) => optionLine(`--${named.flag} ${named.value}`, named.help))].join("\n")}
  --language <lang>  the program's language: typescript (the default: the dynamic resources,
                     \`new cims.Subnet\`), yaml (\`type: cims:index:Subnet\`, for Main.yaml or
                     Pulumi.yaml's \`resources:\`), python (the \`pulumi_cims\` SDK, for
                     __main__.py) or go (main.go, on the SDK \`pulumi package gen-sdk\` writes,
                     imported as ${GO_SDK_PACKAGE}); all but typescript use the
                     provider plugin
  --ignore-tags <json>
                     the stack's cims:ignoreTags ({"keys": [...], "keyPrefixes": [...]}):
                     tags under it are left out of every resource's tags, as the stack
                     refuses them there
  --out <file>       write the program to this file (default: standard output)
  --no-protect       write no \`protect: true\` (by default every resource has it, so
                     \`pulumi destroy\` fails rather than delete what predates the stack;
                     later: remove it from the program, or \`pulumi state unprotect <urn>\`)
  --api-url <url>    API base URL (default: $CIMS_API_URL)
  --api-key <key>    API key (default: $CIMS_API_KEY, which keeps it out of the process list)
  -h, --help         show this help

Exit status: 0 written; 1 the service refused, nothing was found, a named record does not
exist, or the Terraform state is unreadable, not format 4, or names nothing the service still
has (nothing is written); 2 a usage error.
`;

const PROGRAM = "cims-import";

class UsageError extends Error {}
class ImportError extends Error {}

export interface Options {
  scope: Scope;
  /** Each listed kind's filter values, by flag (`network`: network ids). */
  filters: Record<string, string[]>;
  /** The ids each named kind's flag gave, by flag (`pool`, `policy`, `client`). */
  named: Record<string, Array<string | number>>;
  out?: string;
  /** Each resource with `protect: true` (false: --no-protect; default true). */
  protect?: boolean;
  /** The program's language (--language; default typescript). */
  language?: Language;
  /** --ignore-tags: the stack's `cims:ignoreTags`, whose tags the program leaves out. */
  ignoreTags?: IgnoreTags;
  apiUrl?: string;
  apiKey?: string;
}

/** --from-terraform: the state names the records; --project and --region only fill in a scope it leaves out. */
export interface TerraformOptions {
  fromTerraform: string;
  fallback?: Scope;
  out?: string;
  protect: boolean;
  language?: Language;
  ignoreTags?: IgnoreTags;
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

function language(value: string | undefined): Language | undefined {
  if (value === undefined) return undefined;
  const known = LANGUAGES.find((l) => l === value.toLowerCase());
  if (known === undefined) throw new UsageError(`--language must be one of ${LANGUAGES.join(", ")}, got ${JSON.stringify(value)}`);
  return known;
}

function uuid(flag: string, value: string): string {
  if (!isUuid4(value)) throw new UsageError(`${flag} must be a uuid4, got ${JSON.stringify(value)}`);
  return value.toLowerCase();
}

/** The command line as options; throws UsageError. `undefined` for --help. */
export function parseOptions(argv: string[]): Options | TerraformOptions | undefined {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        project: { type: "string" },
        region: { type: "string" },
        ...Object.fromEntries(filterRows().map(({ filter }) => [filter.flag, { type: "string", multiple: true, default: [] }] as const)),
        ...Object.fromEntries(namedRows().map(({ named }) => [named.flag, { type: "string", multiple: named.repeatable }] as const)),
        out: { type: "string" },
        language: { type: "string" },
        "from-terraform": { type: "string" },
        "no-protect": { type: "boolean", default: false },
        "ignore-tags": { type: "string" },
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
  if (values.help === true) return undefined;
  // The flags are the kinds' (see USAGE): read them by name.
  const given = new Map<string, unknown>(Object.entries(values));
  const text = (flag: string): string | undefined => {
    const v = given.get(flag);
    return typeof v === "string" ? v : undefined;
  };
  const texts = (flag: string): string[] => {
    const v = given.get(flag);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : typeof v === "string" ? [v] : [];
  };
  const project = text("project");
  const region = text("region");
  const common = {
    out: text("out"),
    protect: given.get("no-protect") !== true,
    language: language(text("language")),
    ignoreTags: ignoreTagsFlag(text("ignore-tags")),
    apiUrl: text("api-url"),
    apiKey: text("api-key"),
  };
  const fromTerraform = text("from-terraform");
  if (fromTerraform !== undefined) {
    const chosen = [...filterRows().map(({ filter }) => filter.flag), ...namedRows().map(({ named }) => named.flag)].filter(
      (flag) => texts(flag).length > 0,
    );
    if (chosen.length > 0) throw new UsageError(`--${chosen[0]} has no use with --from-terraform: the state names the records to adopt`);
    if ((project === undefined) !== (region === undefined)) throw new UsageError("--project and --region go together");
    const fallback =
      project !== undefined && region !== undefined
        ? { projectId: positiveInteger("--project", project), regionId: positiveInteger("--region", region) }
        : undefined;
    return { fromTerraform, fallback, ...common };
  }
  if (project === undefined || region === undefined) throw new UsageError("--project and --region are required");
  const dedupe = <T>(xs: T[]) => [...new Set(xs)];
  const parse = (value: "<uuid>" | "<id>", flag: string, v: string) =>
    value === "<uuid>" ? uuid(`--${flag}`, v) : positiveInteger(`--${flag}`, v);
  return {
    scope: { projectId: positiveInteger("--project", project), regionId: positiveInteger("--region", region) },
    filters: Object.fromEntries(filterRows().map(({ filter: f }) => [f.flag, dedupe(texts(f.flag).map((v) => uuid(`--${f.flag}`, v)))])),
    named: Object.fromEntries(namedRows().map(({ named: n }) => [n.flag, dedupe(texts(n.flag).map((v) => parse(n.value, n.flag, v)))])),
    ...common,
  };
}

/** --ignore-tags, read by the rules of `cims:ignoreTags` (the same JSON), its errors naming the flag. */
function ignoreTagsFlag(value: string | undefined): IgnoreTags | undefined {
  try {
    return CONFIG_TABLE.ignoreTags.parse(value, "--ignore-tags");
  } catch (err) {
    if (err instanceof ConfigurationError) throw new UsageError(err.message);
    throw err;
  }
}

/** The client, from the flags, else CIMS_API_URL / CIMS_API_KEY (provider/config.ts rules). */
function clientFor(options: Pick<Options, "apiUrl" | "apiKey">, env: NodeJS.ProcessEnv, log: (line: string) => void): CimsClient {
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
  // As the provider does (context.ts): a key too short to search for shows as it is wherever a message quotes it.
  if (tooShortToRedact(apiKey))
    log(
      `warning: the API key is shorter than ${MIN_REDACTED_KEY_LENGTH} characters, too short to be hidden in messages: a line that ` +
        `quotes it (a service's answer echoing the request) shows it as it is. Use a key of ${MIN_REDACTED_KEY_LENGTH} or more characters`,
    );
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
  const where = `project ${projectId}, region ${regionId}`;
  const owned = listedKinds();
  const records = await listOwned(client, options, owned, where, progress);
  const missing = await readNamed(client, options, records, where, progress);
  const total = countIn(records, KIND_NAMES);
  const unknownScope = await unknownScopeNote(client, options.scope, records, where);
  if (missing.length > 0) {
    throw new ImportError([`${missing.join("; ")}.`, unknownScope, "Nothing was written."].filter(Boolean).join(" "));
  }
  if (total === 0) throw nothingFound(options, owned, where, unknownScope);
  if (unknownScope) progress(`warning: ${unknownScope}`);
  return records;
}

/** The records of the kinds that own their records, by their scope's list (filtered by the flags given). */
async function listOwned(
  client: CimsClient,
  options: Options,
  owned: readonly Kind[],
  where: string,
  progress: (line: string) => void,
): Promise<ImportRecords> {
  const scope = { project_id: options.scope.projectId, region_id: options.scope.regionId };
  const records: ImportRecords = {};
  for (const type of owned) {
    const template = listPathOf(type);
    if (!template) continue;
    const row = kind(type).descriptor.import;
    const list = apiPath(template, scope);
    const found: ApiRecord[] = [];
    const only = row.filter ? (options.filters[row.filter.flag] ?? []) : [];
    if (row.filter && only.length > 0) {
      for (const value of only) {
        const matching = await listAll(client, list, { [row.filter.query]: value });
        if (matching.length === 0) progress(`no ${many(type)} in ${row.filter.flag} ${value} (${where})`);
        found.push(...matching);
      }
    } else {
      found.push(...(await listAll(client, list)));
    }
    records[type] = found;
  }
  progress(`${where}: ${owned.map((k) => counted(k, records[k]!.length)).join(", ")}`);
  return records;
}

/**
 * The records named on the command line, read by id into `records`; what is missing (a 404)
 * is noted and skipped, so every missing record is named at once.
 */
async function readNamed(
  client: CimsClient,
  options: Options,
  records: ImportRecords,
  where: string,
  progress: (line: string) => void,
): Promise<string[]> {
  const missing: string[] = [];
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
  for (const { type, named: row } of namedRows()) {
    const ids = options.named[row.flag] ?? [];
    if (ids.length === 0) continue;
    const d = kind(type).descriptor;
    const found: ApiRecord[] = [];
    for (const id of ids) found.push(...(await read(d.recordPath(options.scope, String(id)), row.missing(id, where), d.recordKey)));
    named.push([type, found]);
  }
  for (const [type, found] of named) {
    records[type] = found;
    // A record named as one kind (a policy as SnapshotPolicyState) is not also written as the kind that lists its calls' records.
    const get = operation(kind(type).descriptor.contract, "get")?.template;
    const ids = new Set(found.map((r) => String(r.id)));
    for (const other of listedKinds().filter((k) => operation(kind(k).descriptor.contract, "get")?.template === get))
      records[other] = records[other]?.filter((r) => !ids.has(String(r.id)));
  }
  if (named.length > 0) progress(`read ${named.map(([type, found]) => counted(type, found.length)).join(", ")}`);
  return missing;
}

/** How many records of these kinds were found. */
const countIn = (records: ImportRecords, types: readonly Kind[]) => types.reduce((n, t) => n + (records[t]?.length ?? 0), 0);

/**
 * An unknown project or region is no error of the list calls (they answer empty), only of
 * each GET by id (404). When nothing scoped was found, this asks whether the scope holds
 * anything, and says so when it holds nothing ("" otherwise).
 */
async function unknownScopeNote(client: CimsClient, scope: Scope, records: ImportRecords, where: string): Promise<string> {
  // The kinds a project and region hold, and the list call of each.
  const all = KIND_NAMES.filter((k) => kind(k).descriptor.scoped && !underParent(k)).map((k) => {
    const d = kind(k).descriptor;
    return { type: k, list: isOwned(d) ? d.paths.list : d.contract.paths.collection };
  });
  // Two kinds of one record (a policy and its state) share a list: asked, and named, once.
  const scoped = all.filter((s, i) => all.findIndex((o) => o.list === s.list) === i);
  if (
    countIn(
      records,
      all.map((s) => s.type),
    ) > 0
  )
    return "";
  const params = { project_id: scope.projectId, region_id: scope.regionId };
  const counts = await Promise.all(
    scoped.map(async ({ list }) => (list ? (await client.page(apiPath(list, params), { query: { limit: 1, offset: 0 } })).count : 0)),
  );
  if (!counts.every((n) => Number(n) === 0)) return "";
  return `${where[0].toUpperCase()}${where.slice(1)} holds no ${either(scoped.map(({ type }) => kind(type).descriptor.import.named?.what ?? many(type)))}: is it an unknown project or region? Check --project and --region.`;
}

/** The error when nothing was found: what was searched, and what to check. */
function nothingFound(options: Options, owned: readonly Kind[], where: string, unknownScope: string): ImportError {
  const filtered = filterRows().filter(({ filter }) => (options.filters[filter.flag] ?? []).length > 0);
  const searched = owned.map((type) => {
    const f = filtered.find((r) => r.type === type)?.filter;
    return f ? `${many(type)} of ${f.flag}(s) ${options.filters[f.flag].join(", ")}` : many(type);
  });
  return new ImportError(
    [
      `nothing to import: searched ${where} for ${either(searched, "and")}, and found none; no ${either(namedRows().map(({ named: n }) => `--${n.flag}`))} was named.`,
      unknownScope || filtered.map(({ filter }) => `Check --${filter.flag}.`).join(" "),
      "Nothing was written.",
    ]
      .filter(Boolean)
      .join(" "),
  );
}

/**
 * Each record as its kind's import may take it (`prepare`: a pool without the members some
 * stack's member create made), in place; what was left out, as a comment on its resource.
 */
async function prepareRecords(
  client: CimsClient,
  scope: Scope,
  records: ImportRecords,
  progress: (line: string) => void,
): Promise<Omission[]> {
  const omit: Omission[] = [];
  for (const type of KIND_NAMES) {
    const row = kind(type).descriptor.import;
    if (!row.prepare || !records[type]) continue;
    for (const [i, record] of records[type].entries()) {
      const prepared = await row.prepare(client, record, scope);
      records[type][i] = prepared.record;
      for (const why of prepared.notes) {
        progress(`note: ${type} ${String(row.id(record))}: ${why}`);
        omit.push({ type, id: String(row.id(record)), why });
      }
    }
  }
  return omit;
}

/** A failure as one line, saying what to do; never the key (errors never hold it). */
export function describeFailure(err: unknown, options: { scope?: Scope } | undefined, apiUrl: string | undefined): string {
  const where = options?.scope ? `project ${options.scope.projectId}, region ${options.scope.regionId}` : "the project";
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

/** The program to --out, else to standard output; `count` says what it holds. */
function write(source: string, out: string | undefined, count: string, progress: (line: string) => void): void {
  if (out) {
    fs.writeFileSync(out, source);
    progress(`${count}: wrote ${out}`);
  } else {
    process.stdout.write(source);
    progress(`${count}: written to standard output`);
  }
}

/** --from-terraform: the state's records read from the service, the program written; 1 when none is left to adopt. */
async function fromTerraform(client: CimsClient, options: TerraformOptions, progress: (line: string) => void): Promise<number> {
  let text: string;
  try {
    text = fs.readFileSync(options.fromTerraform, "utf8");
  } catch (err) {
    throw new TerraformStateError(
      `cannot read ${options.fromTerraform} (${messageOf(err)}): give the file \`terraform state pull\` writes.`,
    );
  }
  const tf = readTerraformState(text, options.fromTerraform, options.fallback);
  progress(
    `${options.fromTerraform}: ${tf.adopted.length} resource(s) to adopt, ${tf.skipped.length} not adopted; reading them from ${client.apiUrl.href}`,
  );
  const header = [`cims-import --from-terraform ${options.fromTerraform}`];
  const result = await importFromTerraform(client, tf, {
    header,
    protect: options.protect,
    language: options.language,
    ignoreTags: options.ignoreTags,
  });
  for (const s of result.skipped) progress(`not adopted: ${skippedLine(s)}`);
  for (const r of result.gone) progress(`gone: ${goneLine(r)}`);
  for (const note of result.notes) progress(`note: ${note}`);
  if (result.adopted.length === 0) {
    const asked = result.gone.length > 0 ? " (each 404 above says where it was looked for: check that project and region)" : "";
    progress(
      `nothing to adopt: ${options.fromTerraform} names no record of a kind pulumi-cims manages that the service has where it was asked${asked}. Nothing was written.`,
    );
    return 1;
  }
  const count = KIND_NAMES.map((type) => [type, result.adopted.filter((r) => r.kind === type).length] as const)
    .filter(([, n]) => n > 0)
    .map(([type, n]) => counted(type, n))
    .join(", ");
  write(result.source, options.out, count, progress);
  return 0;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // A state's or a record's text in a line (an address, a name, a note) can neither colour the terminal nor fake a line.
  const progress = (line: string) => process.stderr.write(`${PROGRAM}: ${line.split("\n").map(visible).join("\n")}\n`);
  let options: Options | TerraformOptions | undefined;
  let client: CimsClient | undefined;
  try {
    options = parseOptions(argv);
    if (options === undefined) {
      process.stdout.write(USAGE);
      return 0;
    }
    client = clientFor(options, env, progress);
    if ("fromTerraform" in options) return await fromTerraform(client, options, progress);
    progress(`reading project ${options.scope.projectId}, region ${options.scope.regionId} from ${client.apiUrl.href}`);
    const records = await readRecords(client, options, progress);
    const notes: string[] = [];
    const header = [
      `cims-import --project ${options.scope.projectId} --region ${options.scope.regionId}` +
        Object.entries({ ...options.filters, ...options.named })
          .flatMap(([flag, values]) => values.map((v) => ` --${flag} ${v}`))
          .join("") +
        (options.ignoreTags ? ` --ignore-tags '${JSON.stringify(options.ignoreTags)}'` : ""),
    ];
    const omit = await prepareRecords(client, options.scope, records, progress);
    const source = generateModule(
      records,
      options.scope,
      { header, protect: options.protect, omit, language: options.language, ignoreTags: options.ignoreTags },
      notes,
    );
    for (const note of notes) progress(`note: ${note}`);
    const count = importedKinds()
      .map((type) => counted(type, records[type]?.length ?? 0))
      .join(", ");
    write(source, options.out, count, progress);
    return 0;
  } catch (err) {
    if (err instanceof TerraformStateError) {
      progress(`${err.message} Nothing was written.`);
      return 1;
    }
    if (err instanceof UsageError) {
      progress(`${err.message}\n\n${USAGE}`);
      return 2;
    }
    progress(describeFailure(err, options && "scope" in options ? options : undefined, client?.apiUrl.href));
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
