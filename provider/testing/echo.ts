import * as pulumi from "@pulumi/pulumi";

type Shim = pulumi.dynamic.ResourceProvider;

/** Echo's serialized provider: like the CIMS shims (../resources/shim.ts), through its own door. */
const echoShim = {
  configure(req: pulumi.dynamic.ConfigureRequest) {
    return require("pulumi-cims/testing/install").install(this, req);
  },
} as unknown as Shim;

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
