import * as pulumi from "@pulumi/pulumi";

/**
 * The serialized provider (design.md rule 1): Pulumi stores the text of these functions
 * in every Echo's state. Each method loads the implementation by package name when it is
 * called, so the stored text is tiny, captures nothing, and never goes stale.
 */
const echoProvider: pulumi.dynamic.ResourceProvider = {
  check: (olds, news) => require("pulumi-cims/provider/testing/echo-impl").check(olds, news),
  diff: (id, olds, news) => require("pulumi-cims/provider/testing/echo-impl").diff(id, olds, news),
  create: (inputs) => require("pulumi-cims/provider/testing/echo-impl").create(inputs),
  update: (id, olds, news) => require("pulumi-cims/provider/testing/echo-impl").update(id, olds, news),
  read: (id, props) => require("pulumi-cims/provider/testing/echo-impl").read(id, props),
  delete: () => require("pulumi-cims/provider/testing/echo-impl").remove(),
};

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
    super(echoProvider, name, { message: args.message, length: undefined }, opts, "cims", "Echo");
  }
}
