// Java programs on the committed SDK (sdk/java/), built by Maven with the pom.xml the docs
// give users (examples/java/pom.xml): a project the e2e files write holds that pom, the SDK's
// sources and the program as app.App, the main class the pom names. Maven's repository
// (~/.m2) is the machine's, filled from Maven Central by the first run.
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { JAVA_SDK_DIR } from "../../scripts/gen-sdk-java";
import { REPO_ROOT } from "./harness";

/** The pom.xml users copy (docs/platform.md shows it whole), which every Java e2e program builds with. */
export const JAVA_POM = path.join(REPO_ROOT, "examples/java/pom.xml");

// Maven's JVM (each command that runs the program starts one, and the jar's build) with its
// quick compiler only and one GC thread: a short run spent most of its CPU compiling for a
// peak speed it never reached (48 -> 31 s of CPU for java-program.test.ts on 2 cores). What
// the program does is unchanged; `binary: target/app.jar` runs under the JVM's defaults.
export const MAVEN_OPTS = [process.env.MAVEN_OPTS, "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:CICompilerCount=1"]
  .filter(Boolean)
  .join(" ");

/** Writes the pom, the committed SDK and `program` (app/App.java) into the project directory `dir`. */
export async function javaProject(dir: string, program: string): Promise<void> {
  await fs.copyFile(JAVA_POM, path.join(dir, "pom.xml"));
  await fs.cp(path.join(REPO_ROOT, JAVA_SDK_DIR), path.join(dir, "sdk/java"), { recursive: true });
  await fs.mkdir(path.join(dir, "src/main/java/app"), { recursive: true });
  await fs.writeFile(path.join(dir, "src/main/java/app/App.java"), program);
}
