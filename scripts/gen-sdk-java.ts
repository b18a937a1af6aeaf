// The Java SDK (`com.pulumi.cims`, sdk/java/) as `npm run gen` writes it: generated from
// schema.json by pulumi-java's generator, through `pulumi package gen-sdk --local` and our
// pulumi-language-java (scripts/pulumi builds it beside the CLI, as the other hosts).
// `--local`: sources and the SDK's version.txt with no Gradle build of their own, for a
// program's build to compile (docs/platform.md, "Java").
import * as path from "node:path";
import { generateSdk, writeSdk } from "./gen-sdk-python";

export const JAVA_SDK_DIR = "sdk/java";

/** Every file of the Java SDK generated from `schema`, by its path under sdk/java/. */
export function generateJavaSdk(schema: string): Map<string, string> {
  return generateSdk(schema, "java", ["--local"]);
}

/** Writes sdk/java/ as generated from the repository's schema.json, removing files it no longer has. */
export function writeJavaSdk(root: string): string[] {
  return writeSdk(root, JAVA_SDK_DIR, generateJavaSdk(path.join(root, "schema.json")));
}
