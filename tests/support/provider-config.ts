// The provider's methods, called in process, pointed at a service on loopback (a scripted
// test server or an emulator): the stack config the dynamic provider's configure() would give
// them, set in one place so that each test file says only what its own calls need.
import { setConfig } from "../../provider/methods/context";

/** The key the provider sends to a scripted server, which checks none. */
export const UNIT_TEST_KEY = "unit-test-key-0123456789";

/**
 * The provider's config: the service at `url` with UNIT_TEST_KEY, and `config`'s keys beside
 * them (`cims:apiKey` among them replaces the key; an undefined value leaves a key unset).
 */
export function configureProvider(url: string, config: Record<string, string | undefined> = {}): void {
  const values = new Map(Object.entries({ "cims:apiUrl": url, "cims:apiKey": UNIT_TEST_KEY, ...config }));
  setConfig((key) => values.get(key));
}

/**
 * The provider pointed at a scripted server (tests/support/test-server.ts): no retry, so each
 * scripted answer is met once, and no credentials probe, which such a server does not serve
 * (the probe has its own tests, tests/unit/provider/client/credentials.test.ts).
 */
export function configureForScripted(url: string, config: Record<string, string | undefined> = {}): void {
  configureProvider(url, { "cims:maxRetries": "0", "cims:skipCredentialsValidation": "true", ...config });
}
