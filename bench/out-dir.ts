// Where a bench run writes its figures.
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The folder an --out run writes to, made ready before anything is measured: created if it is
 * missing, refused at once if it cannot hold the results, so a run of many minutes never ends
 * failing to write its figures.
 */
export function readyOutDir(dir: string): string {
  const where = path.resolve(dir);
  try {
    fs.mkdirSync(where, { recursive: true });
    if (!fs.statSync(where).isDirectory()) throw Object.assign(new Error("not a folder"), { code: "ENOTDIR" });
    fs.accessSync(where, fs.constants.W_OK);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new Error(
      `--out ${dir}: cannot write the results there (${why}): give a folder you can write to, or leave --out out to write to bench/`,
      {
        cause: err,
      },
    );
  }
  return where;
}
