// What one provider process remembers of the deployment it serves (one `pulumi up`, preview,
// refresh or destroy): the program's holdings, the records its creates adopted or claimed, the
// settings it wrote, the lists its creates and reads share. The engine starts a provider
// process for each deployment, so in use none of it is ever forgotten. Each such memory is
// made here, so that forgetRun() forgets them all: tests that play many deployments in one
// process call it between them, as a new process would start empty.

const forgetters: Array<() => void> = [];

/** How a memory of this deployment is forgotten, for forgetRun(). */
export function forgetWithRun(forget: () => void): void {
  forgetters.push(forget);
}

/** A memory of this deployment, emptied by forgetRun(). */
export function runMemory<T extends { clear(): void }>(memory: T): T {
  forgetWithRun(() => memory.clear());
  return memory;
}

/**
 * A memory kept per API client (one per configuration): forgotten by forgetRun() as the others
 * (a WeakMap cannot be emptied, so it is replaced).
 */
export function perClientMemory<V>(): { get(client: object): V | undefined; set(client: object, value: V): void } {
  let byClient = new WeakMap<object, V>();
  forgetWithRun(() => (byClient = new WeakMap<object, V>()));
  return { get: (client) => byClient.get(client), set: (client, value) => void byClient.set(client, value) };
}

/** Forgets everything this process remembers of its deployment: the next call is as a new deployment's first. */
export function forgetRun(): void {
  for (const forget of forgetters) forget();
}
