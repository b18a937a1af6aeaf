// `cims-emulator` programmatic entry: `import { startEmulator } from "pulumi-cims/emulator"`.
export { startEmulator, type EmulatorOptions, type RunningEmulator } from "./server";
export type { Seed } from "./store/store";
export type { RequestFault, TaskFaultRule } from "./faults";
