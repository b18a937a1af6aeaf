import * as pulumi from "@pulumi/pulumi";
import { echoShim } from "../resources/shim";

/** Arguments of the test-only {@link Echo} resource. */
export interface EchoArgs {
  /** Any text; changing it updates the resource in place. */
  readonly message: pulumi.Input<string>;
}

/**
 * A test-only dynamic resource that stores a message and its length. It exists to prove
 * that the dynamic-provider plugin path works under the real engine, from TypeScript and
 * from the packed tarball; it calls no API.
 */
export class Echo extends pulumi.dynamic.Resource {
  /** The message, as stored. */
  public readonly message!: pulumi.Output<string>;
  /** Length of the message, computed by the provider. */
  public readonly length!: pulumi.Output<number>;

  constructor(name: string, args: EchoArgs, opts?: pulumi.CustomResourceOptions) {
    super(echoShim, name, { message: args.message, length: undefined }, opts, "cims", "Echo");
  }
}
