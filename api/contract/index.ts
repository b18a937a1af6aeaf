// The contract's vocabulary and its derivations. Each resource's contract is its own file
// (./subnet.ts exports `Subnet`, ...), imported by that resource's kind and collection; the
// registry of resources is provider/kinds/index.ts.
export * from "./types";
export * from "./derive";
export * from "./operations";
