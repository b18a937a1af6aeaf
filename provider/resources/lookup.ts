// The default face's lookups (generated/lookups.ts) run in the program's own process: a dynamic
// provider serves no Invoke. The lookup code and the HTTP client are loaded at the first call
// (by path, not imported), so a program that looks nothing up starts as fast as before.
/** Runs the lookup `name` with `args` in this process: the stack's `cims:*` config, one list per scope and run. */
export function programLookup<Result>(name: string, args: object): Promise<Result> {
  // Its answer is the lookup's record shape (api/lookups.ts), which the generated Result declares,
  // as a registry SDK's invoke() answers what its schema declares.
  const loaded: { lookupInProgram(name: string, args: object): Promise<Result> } = require("../lookups/program");
  return loaded.lookupInProgram(name, args);
}
