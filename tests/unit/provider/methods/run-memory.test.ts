// What a provider process remembers of its deployment is forgotten, all of it, by forgetRun():
// tests that play many deployments in one process start each as a new process would.
import { forgetRun, perClientMemory, runMemory } from "../../../../provider/methods/run-memory";

test("forgetRun empties every run memory and every per-client memory", () => {
  const ids = runMemory(new Set<string>(["a"]));
  const lists = runMemory(new Map<string, number>([["k", 1]]));
  const byClient = perClientMemory<string[]>();
  const client = {};
  byClient.set(client, ["x"]);
  expect([ids.size, lists.size, byClient.get(client)]).toEqual([1, 1, ["x"]]);

  forgetRun();
  expect([ids.size, lists.size, byClient.get(client)]).toEqual([0, 0, undefined]);
  // Still in use after: a memory is emptied, not dropped.
  ids.add("b");
  byClient.set(client, ["y"]);
  expect([[...ids], byClient.get(client)]).toEqual([["b"], ["y"]]);
});
