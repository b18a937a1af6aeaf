// Public entry point of `pulumi-cims`: the CIMS resources. The emulator is at
// `pulumi-cims/emulator`, the test-only Echo resource at `pulumi-cims/testing`.
export { Subnet, type SubnetArgs, type HostRoute, type Timeouts } from "./resources/subnet";
