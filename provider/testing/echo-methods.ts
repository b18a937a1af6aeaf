// Provider methods of the test-only Echo resource. The serialized shim in echo.ts loads this
// file by package name at call time, so nothing here ends up in Pulumi state.
import { randomUUID } from "node:crypto";
import type * as pulumi from "@pulumi/pulumi";
import type { KindDiff } from "../methods/diff";

export interface EchoInputs {
  message: string;
}

export interface EchoOutputs extends EchoInputs {
  length: number;
}

function outputs(inputs: EchoInputs): EchoOutputs {
  return { message: inputs.message, length: inputs.message.length };
}

export async function check(_olds: unknown, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  if (typeof news.message !== "string") {
    return { inputs: news, failures: [{ property: "message", reason: "message is required and must be a string" }] };
  }
  return { inputs: { message: news.message } };
}

export async function diff(_id: string, olds: EchoOutputs, news: EchoInputs): Promise<KindDiff> {
  const diffs = olds.message !== news.message ? ["message"] : [];
  return { changes: diffs.length > 0, diffs };
}

export async function create(inputs: EchoInputs): Promise<pulumi.dynamic.CreateResult> {
  return { id: randomUUID(), outs: outputs(inputs) };
}

export async function update(_id: string, _olds: EchoOutputs, news: EchoInputs): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: outputs(news) };
}

export async function read(id: string, props: EchoOutputs): Promise<pulumi.dynamic.ReadResult> {
  return { id, props };
}

export async function remove(): Promise<void> {
  // Nothing exists outside Pulumi's state.
}

/** What the shim installs (see install.ts). */
export const echoMethods = { check, diff, create, update, read, delete: remove };
