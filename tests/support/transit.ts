// The e2e run's secrets provider: a stand-in for HashiCorp Vault's transit engine, the two calls
// Pulumi's `hashivault://` secrets provider makes (gocloud.dev/secrets/hashivault: `PUT
// /v1/transit/encrypt/<key>` and `/decrypt/<key>`, the token in X-Vault-Token), served over
// loopback by the run's jest process (global-setup.js) for every stack of the run.
//
// Why not the passphrase provider, the CLI's default for a `file://` backend: it derives its key
// with 1,000,000 rounds of PBKDF2 in every `pulumi` process, about 0.18 s of CPU each (the CLI
// process's whole CPU, `pulumi preview` of a one-output YAML program, median of 8: 0.58 s with a
// passphrase, 0.40 s with this), and an e2e run starts some 600 of them. With `hashivault://`
// the CLI unwraps the stack's data key with one call here, then encrypts and decrypts with it
// as it does with a passphrase's key: what the provider and the state see is the same either way.
// Stacks that test what a passphrase does (their own salt) ask for it (StackOptions.secretsProvider).
//
// Written here rather than run as Vault itself (a server binary and its setup for two routes):
// each route is AES-256-GCM under a key made for the run, behind a token made for it, and its
// ciphertexts are spelled as Vault's are (`vault:v1:`).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { type RecordedRequest, type Reply, startTestServer } from "./test-server";

export interface Transit {
  /** The secrets provider a stack is made with: `hashivault://<key>`. */
  provider: string;
  /** The environment every `pulumi` command of the run needs to reach it (the provider reads these). */
  env: { VAULT_SERVER_URL: string; VAULT_SERVER_TOKEN: string };
  close(): Promise<void>;
}

const PREFIX = "vault:v1:";
const ROUTE = /^\/v1\/transit\/(encrypt|decrypt)\/([A-Za-z0-9_.-]+)$/;

/** Starts the stand-in on a free loopback port (test-server.ts), with a key and a token of its own. */
export async function startTransit(keyName = "pulumi-cims-e2e"): Promise<Transit> {
  const key = randomBytes(32);
  const token = randomBytes(16).toString("hex");
  const encrypt = (plain: Buffer): string => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key, iv);
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
  };
  const decrypt = (text: string): Buffer => {
    if (!text.startsWith(PREFIX)) throw new Error("ciphertext is not of this transit key (no vault:v1: prefix)");
    const raw = Buffer.from(text.slice(PREFIX.length), "base64");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  };
  const answer = (req: RecordedRequest): Reply => {
    const route = ROUTE.exec(req.url);
    if (req.headers["x-vault-token"] !== token) return { status: 403, body: { errors: ["permission denied"] } };
    if (!route || (req.method !== "PUT" && req.method !== "POST")) return { status: 404, body: { errors: [`no handler for ${req.url}`] } };
    if (route[2] !== keyName) return { status: 400, body: { errors: [`encryption key not found: ${route[2]}`] } };
    try {
      const body = JSON.parse(req.body) as { plaintext?: unknown; ciphertext?: unknown };
      if (route[1] === "encrypt") {
        if (typeof body.plaintext !== "string") throw new Error("missing plaintext to encrypt");
        return { body: { data: { ciphertext: encrypt(Buffer.from(body.plaintext, "base64")) } } };
      }
      if (typeof body.ciphertext !== "string") throw new Error("missing ciphertext to decrypt");
      return { body: { data: { plaintext: decrypt(body.ciphertext).toString("base64") } } };
    } catch (err) {
      return { status: 400, body: { errors: [err instanceof Error ? err.message : String(err)] } };
    }
  };
  const server = await startTestServer(answer);
  return { provider: `hashivault://${keyName}`, env: { VAULT_SERVER_URL: server.url, VAULT_SERVER_TOKEN: token }, close: server.close };
}
