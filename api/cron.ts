// A cron snapshot schedule's fields as the vendor documents them: each is `*` or a comma-separated
// list of values in the field's range (the SDK's docstrings: "Minute (0-59, '*') or a
// comma-separated list of minutes"; the Terraform provider's: "Either single asterisk or
// comma-separated list of integers (0-59)"), weekdays by name (mon..sun, the SDK) or number (0-6,
// Terraform). Ranges (`1-5`) and steps (`*/15`) are forms neither documents, so they are refused
// with the list they stand for, which every reading of them accepts. `timezone` is a pytz zone:
// an IANA name (Node's list, its aliases, or UTC).

interface CronField {
  min: number;
  max: number;
  names?: readonly string[];
}

export const CRON_FIELDS: Readonly<Record<string, CronField>> = {
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  day: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  week: { min: 1, max: 53 },
  dayOfWeek: { min: 0, max: 6, names: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] },
};

const forms = (f: CronField) =>
  `\`*\` or a comma-separated list of ${f.min}-${f.max}${f.names ? ` or ${f.names.join(",")}` : ""} (the vendor's documented forms)`;

/** The values a range or step stands for (`1-5`, `*\/15`, `0-30/10`), within the field; undefined for any other item. */
function expansion(item: string, f: CronField): number[] | undefined {
  const found = /^(\*|(\d+)-(\d+))(?:\/(\d+))?$/.exec(item);
  if (!found || (found[1] === "*" && found[4] === undefined)) return undefined;
  const [from, to] = found[1] === "*" ? [f.min, f.max] : [Number(found[2]), Number(found[3])];
  const step = found[4] === undefined ? 1 : Number(found[4]);
  if (step < 1 || from > to || from < f.min || to > f.max) return undefined;
  const values: number[] = [];
  for (let v = from; v <= to; v += step) values.push(v);
  return values;
}

/** Why one item of a list is not a value of the field, or undefined. */
function itemIssue(item: string, f: CronField): string | undefined {
  if (f.names?.includes(item)) return undefined;
  if (/^\d+$/.test(item)) {
    const v = Number(item);
    return v >= f.min && v <= f.max ? undefined : `${item} is outside ${f.min}-${f.max}`;
  }
  const stands = expansion(item, f);
  if (stands) return `"${item}" is a range or step, a form the vendor does not document: write its values, "${stands.join(",")}"`;
  return `"${item}" is not a value of the field`;
}

/** Why a cron field's value is not one the service documents, or undefined. */
export function cronIssue(field: string, value: string): string | undefined {
  const f = CRON_FIELDS[field];
  if (!f || value === "*") return undefined;
  const items = value.split(",");
  for (const item of items) {
    const issue = item === "" ? "an empty item" : itemIssue(item, f);
    if (issue) return `must be ${forms(f)}: ${issue}`;
  }
  return undefined;
}

let zones: Set<string> | undefined;

/** Whether a name is an IANA time zone (Node's list, or an alias it resolves into the list), or UTC. */
export function isTimeZone(name: string): boolean {
  zones ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  if (zones.has(name)) return true;
  // Aliases (US/Eastern, Europe/Kiev) resolve to a listed zone; an offset such as +01:00 is no pytz zone.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    return zones.has(new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}
