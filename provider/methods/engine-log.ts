// The dynamic face's warnings. A provider's stdout reaches the CLI as info lines only, so a
// warning (what an `up` will remove or interrupt) goes to the engine's log at warning
// severity instead. The dynamic provider API does not tell a method which resource it serves,
// so the warning carries no URN: the CLI shows it under the stack, and its text names the
// resource.
import { enginePb, engineRpc, grpc } from "../plugin/proto";

/** The engine's address among the provider process's arguments: the engine passes it last, after any flags. */
export function engineAddress(argv: readonly string[] = process.argv.slice(2)): string | undefined {
  return [...argv].reverse().find((a) => /^[^-\s]\S*:\d+$/.test(a));
}

/** Sends warnings to the engine at this address; settles when the engine has taken it (or refused it). */
export function engineWarnings(address: string): (line: string) => Promise<void> {
  let client: InstanceType<typeof engineRpc.EngineClient> | undefined;
  return (line) => {
    client ??= new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
    const req = new enginePb.LogRequest();
    req.setSeverity(enginePb.LogSeverity.WARNING);
    req.setMessage(line);
    req.setUrn("");
    return new Promise<void>((resolve) => client!.log(req, () => resolve()));
  };
}
