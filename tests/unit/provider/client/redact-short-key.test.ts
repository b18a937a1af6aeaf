// A key too short to be searched for in messages (redact.ts): the provider's lines keep the
// names and ids that hold its text, and the provider says once, as a warning, that such a key
// is not hidden. A file of its own: the warning is once per process, so per module registry.
import { apiClient, log, setLogSink, type Severity, verifyCredentials } from "../../../../provider/methods/context";
import { configureProvider } from "../../../support/provider-config";

const said: Array<[string, Severity]> = [];
setLogSink((line, severity) => {
  said.push([line, severity]);
});

function configure(apiKey: string): void {
  configureProvider("http://127.0.0.1:9", { "cims:apiKey": apiKey, "cims:skipCredentialsValidation": "true" });
}

const warnings = () => said.filter(([, severity]) => severity === "warning").map(([line]) => line);

test("a key of 8 characters or more is redacted from log lines, and no warning is given", async () => {
  configure("abcdefgh");
  apiClient();
  await verifyCredentials();
  log("subnet abcdefgh-prod");
  expect(said.at(-1)).toEqual(["cims: subnet [redacted]-prod", "info"]);
  expect(warnings()).toEqual([]);
});

test("a shorter key is not cut out of names and ids; one warning says it is too short to be hidden", async () => {
  configure("abc");
  apiClient();
  await verifyCredentials();
  configure("abc");
  apiClient();
  configure("xyz");
  await verifyCredentials();
  log('subnet "abc-prod" exists: adopt it with importId: "abc1234"');
  expect(said.at(-1)).toEqual(['cims: subnet "abc-prod" exists: adopt it with importId: "abc1234"', "info"]);
  expect(warnings()).toHaveLength(1);
  expect(warnings()[0]).toMatch(
    /^cims: the API key \(cims:apiKey or CIMS_API_KEY\) is shorter than 8 characters, too short to be hidden in messages/,
  );
  expect(warnings()[0]).not.toContain("abc");
});
