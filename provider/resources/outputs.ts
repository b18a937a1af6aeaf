// What a program's resource classes share: their outputs, typed from the contract.
import * as pulumi from "@pulumi/pulumi";

/** Every key of the state as an Output property of the resource. */
export type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

type DynamicResourceClass<State> = new (
  provider: pulumi.dynamic.ResourceProvider,
  name: string,
  props: pulumi.Inputs,
  opts?: pulumi.CustomResourceOptions,
  module?: string,
  type?: string,
) => pulumi.dynamic.Resource & OutputsOf<State>;

/**
 * pulumi.dynamic.Resource, typed so that its instances have an Output property per key of
 * `State` (the properties themselves are made by Pulumi from the keys given to outputKeys).
 */
export function withOutputs<State>(): DynamicResourceClass<State> {
  return pulumi.dynamic.Resource as unknown as DynamicResourceClass<State>;
}

/**
 * Every output named, undefined: pulumi.dynamic.Resource makes an Output property only for
 * keys present in its props, and undefined values are not sent as inputs.
 */
export function outputKeys(names: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((n) => [n, undefined]));
}

/** Each field may be a Pulumi input (e.g. a subnet id from another resource). */
export type InputFields<T> = { [K in keyof T]: pulumi.Input<T[K]> };
