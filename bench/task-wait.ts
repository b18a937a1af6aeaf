// Measures the task waiter against a loopback server whose task finishes `duration` after
// it is created: how many GETs it took, and how long after the task finished the waiter
// returned. Usage: npx ts-node bench/task-wait.ts [seconds ...]   (default: 1 30)
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { CimsClient, closeAllPools } from "pulumi-cims/provider/client/index";

async function measure(durationMs: number): Promise<{ gets: number; lagMs: number }> {
  let gets = 0;
  let finishAt = 0;
  const server = http.createServer((req, res) => {
    gets++;
    const state = Date.now() >= finishAt ? "FINISHED" : "RUNNING";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "t", state, task_type: "bench", created_resources: {} }));
    req.resume();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const client = new CimsClient({
    apiUrl: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    apiKey: "bench",
    maxRetries: 3,
    connectTimeoutMs: 5000,
    requestTimeoutMs: 120000,
    taskPath: "/cloud/v1/tasks/{task_id}",
  });
  finishAt = Date.now() + durationMs;
  await client.waitForTasks(["t"], { deadline: Date.now() + durationMs + 60_000, timeoutSeconds: 600 });
  const lagMs = Date.now() - finishAt;
  await closeAllPools();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  return { gets, lagMs };
}

async function main(): Promise<void> {
  const seconds = process.argv.slice(2).map(Number);
  for (const s of seconds.length ? seconds : [1, 30]) {
    const { gets, lagMs } = await measure(s * 1000);
    console.log(`task of ${s}s: ${gets} GETs (fixed 1 s polling: about ${Math.ceil(s)}, fixed 3 s: about ${Math.ceil(s / 3)}); returned ${lagMs} ms after it finished`);
  }
}

void main();
