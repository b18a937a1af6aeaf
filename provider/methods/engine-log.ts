// The dynamic face's warnings and debug lines. A provider's stdout reaches the CLI as info
// lines only, so a warning (what an `up` will remove or interrupt) goes to the engine's log at
// warning severity instead, and a failure's stack trace at debug severity. The dynamic provider API does not tell a method which resource it serves,
// so the warning carries no URN: the CLI shows it under the stack, and its text names the
// resource.
import { enginePb, engineRpc, grpc } from "../proto";

/** The engine's address among the provider process's arguments: the engine passes it last, after any flags. */
export function engineAddress(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  return [...argv].reverse().find((a) => /^[^-\s]\S*:\d+$/.test(a));
}

/**
 * Sends lines to the engine's log at this address, as warnings, or as debug lines (which the
 * CLI shows with `--debug` only); settles when the engine has taken one (or refused it).
 */
export function engineLog(address: string): (line: string, severity: "warning" | "debug") => Promise<void> {
  let client: InstanceType<typeof engineRpc.EngineClient> | undefined;
  return (line, severity) => {
    client ??= new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
    const req = new enginePb.LogRequest();
    req.setSeverity(severity === "warning" ? enginePb.LogSeverity.WARNING : enginePb.LogSeverity.DEBUG);
    req.setMessage(line);
    req.setUrn("");
    return new Promise<void>((resolve) => client!.log(req, () => resolve()));
  };
}
