// Quick start program (the demo). Until the CIMS resources land it deploys the test-only
// Echo resource, which proves the engine, the dynamic-provider plugin and this package work
// together; later issues replace it with Subnet, BaremetalImage, LbPoolSettings,
// SnapshotPolicyState and QuotaThreshold wired together.
import * as pulumi from "@pulumi/pulumi";
import { Echo } from "pulumi-cims/testing";

const config = new pulumi.Config();
const greeting = new Echo("greeting", { message: config.get("message") ?? "hello, CIMS" });

export const message = greeting.message;
export const length = greeting.length;
