// What a program's resource classes share: their outputs, typed from the contract.
import * as pulumi from "@pulumi/pulumi";

/** Every key of the state as an Output property of the resource. */
export type OutputsOf<State> = { readonly [K in keyof State]-?: pulumi.Output<State[K]> };

type DynamicResourceClass<State> = new (
  provider: string,
  name: string,
  props: pulumi.Inputs,
  opts?: pulumi.CustomResourceOptions,
  module?: string,
  type?: string,
) => pulumi.CustomResource & OutputsOf<State>;

/**
 * One cost taken out of a resource's construction, on both faces. The SDK wraps the promise of
 * every property a resource is given (a Subnet has about twenty: each output's key, see
 * outputKeys) with a stack trace formatted at once, read only to report a promise the program
 * leaks. Under ts-node each trace is source-mapped frame by frame: measured, 21 ms a Subnet
 * against 4 ms without (200 Subnets on mocks), a second of every 50-subnet preview and up. So
 * those traces are made empty while the SDK sets the resource up (the super() call between
 * quiet() and its restore), unless PULUMI_DEBUG_PROMISE_LEAKS (the SDK's switch for leak
 * reports) asks for them. The SDK's own source position of the resource raises the limit for
 * itself and is unchanged; an error thrown from the constructor gets its stack back.
 */
function quiet(): number {
  const limit = Error.stackTraceLimit;
  if (!process.env.PULUMI_DEBUG_PROMISE_LEAKS) Error.stackTraceLimit = 0;
  return limit;
}

/** The limit quiet() lowered, back; a thrown error's stack taken anew, from the program's call. */
function restore(limit: number, err?: unknown, from?: abstract new (...args: never[]) => unknown): void {
  Error.stackTraceLimit = limit;
  if (err instanceof Error) Error.captureStackTrace(err, from);
}

/**
 * A dynamic resource, set up quietly (see quiet()): what pulumi.dynamic.Resource registers (the
 * type `pulumi-nodejs:dynamic/<module>:<type>`, served by the engine's dynamic-provider host,
 * with the provider's text as `__provider`), but given the text of ../shim.ts instead of an
 * object for the SDK to serialize, whose closure wrapping would be most of what a resource's
 * state holds.
 */
class CimsDynamicResource extends pulumi.CustomResource {
  constructor(
    provider: string,
    name: string,
    props: pulumi.Inputs,
    opts?: pulumi.CustomResourceOptions,
    module?: string,
    type = "Resource",
  ) {
    const limit = quiet();
    try {
      super(`pulumi-nodejs:dynamic${module ? `/${module}` : ""}:${type}`, name, { ...props, __provider: provider }, opts);
    } catch (err) {
      restore(limit, err, CimsDynamicResource);
      throw err;
    } finally {
      restore(limit);
    }
  }
}

/** pulumi.CustomResource (the plugin face's classes), set up quietly (see quiet()). */
export class CimsCustomResource extends pulumi.CustomResource {
  constructor(...args: ConstructorParameters<typeof pulumi.CustomResource>) {
    const limit = quiet();
    try {
      super(...args);
    } catch (err) {
      restore(limit, err, CimsCustomResource);
      throw err;
    } finally {
      restore(limit);
    }
  }
}

/**
 * The dynamic resource class, typed so that its instances have an Output property per key of
 * `State` (the properties themselves are made by Pulumi from the keys given to outputKeys).
 */
export function withOutputs<State>(): DynamicResourceClass<State> {
  return CimsDynamicResource as unknown as DynamicResourceClass<State>;
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
