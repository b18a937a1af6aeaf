// The pacer: free while nothing limits, everyone paused by a 429's Retry-After (with jitter),
// then spaced at the rate the service accepted; a cap from config from the start. And the
// client under a real rate limit: a burst of requests far over it all succeed.
import { CimsClient, closeAllPools } from "../../../../provider/client";
import { Pacer } from "../../../../provider/client/pacer";
import { useClock } from "../../../../provider/client/clock";
import { startTestServer, type TestServer } from "../../../support/test-server";
import { VirtualClock } from "../../../support/virtual-clock";

// Turns wait on virtual time (tests/support/virtual-clock.ts): how long a turn waited is exact,
// whatever the machine's load, and costs none of the test's.
let clock: VirtualClock;
beforeEach(() => {
  clock = new VirtualClock();
});
afterEach(() => clock.close());

/** A clock the test moves; turn() still really sleeps, so waits are measured by how far it is asked to. */
function fakeClock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("Pacer", () => {
  test("nothing limits yet: turns are at once, four in flight at first and one more with each answer (slow start)", async () => {
    const pacer = new Pacer({ now: clock.now, sleep: clock.sleep });
    const started = clock.now();
    const granted: number[] = [];
    const turns = Array.from({ length: 20 }, (_, i) => pacer.turn().then(() => granted.push(i)));
    await clock.sleep(0);
    expect(granted).toEqual([0, 1, 2, 3]);
    // Each answer frees its place and widens the window by one: two more go for each.
    for (let i = 0; i < 4; i++) {
      pacer.accepted();
      pacer.done();
    }
    await clock.sleep(0);
    expect(granted).toHaveLength(12);
    // A request that failed without an answer frees its place, and widens nothing.
    pacer.done();
    await clock.sleep(0);
    expect(granted).toHaveLength(13);
    for (let i = 0; i < 13; i++) pacer.done();
    await Promise.all(turns);
    expect(clock.now() - started).toBe(0);
    expect(pacer.state).toEqual({ rate: undefined, limited: 0 });
  });

  test("the first 429 sets the rate to what the service accepted in the last second; while none comes it holds there, then climbs back on a cubic, faster and faster", () => {
    const clock = fakeClock();
    const pacer = new Pacer({ now: clock.now, random: () => 0 });
    for (let i = 0; i < 12; i++) {
      pacer.accepted();
      clock.advance(80);
    }
    pacer.limited(1_000);
    const learned = pacer.state.rate!;
    expect(learned).toBeGreaterThanOrEqual(11);
    expect(learned).toBeLessThanOrEqual(13);
    const acceptFor = (ms: number, every: number) => {
      for (let t = 0; t < ms; t += every) {
        clock.advance(every);
        pacer.accepted();
      }
    };
    // Flat for as long as the cubic takes back from 15% under it (1.6 s): the limit was just found.
    const flat = Math.cbrt((learned * 0.15) / 0.4) * 1_000;
    acceptFor(1_500, 50); // the service taking all that is sent
    expect(pacer.state.rate).toBe(learned);
    acceptFor(1_000, 50);
    expect(pacer.state.rate).toBeCloseTo(learned + 0.4 * ((2_500 - flat) / 1_000) ** 3, 5);
    acceptFor(2_000, 50);
    expect(pacer.state.rate).toBeCloseTo(learned + 0.4 * ((4_500 - flat) / 1_000) ** 3, 5);
    // The limit found stays where the 429 found it, for what spends turns only when it must (a
    // scope's task lists): the climb is the pacer looking for a higher one.
    expect(pacer.state.rate).toBeGreaterThan(learned);
    expect(pacer.state.limit).toBe(learned);
  });

  test("a later 429 lowers the rate to 15% under what the service accepted, once for the requests sent at one rate; the rate climbs back from there, never past twice what the service took", () => {
    const clock = fakeClock();
    const pacer = new Pacer({ now: clock.now, random: () => 0 });
    const acceptFor = (ms: number, every: number) => {
      for (let t = 0; t < ms; t += every) {
        pacer.accepted();
        clock.advance(every);
      }
    };
    acceptFor(1_000, 50); // 20 a second
    pacer.limited(1_000);
    expect(pacer.state.rate).toBe(20);
    clock.advance(1_000);
    const sentBefore = clock.now();
    clock.advance(1);
    acceptFor(1_000, 100); // the service took 10 a second
    pacer.limited(1_000, clock.now() - 50);
    expect(pacer.state.rate).toBe(8.5);
    expect(pacer.state.limit).toBe(8.5);
    // Refused too, but sent before that lowering, at the old rate: no signal of the new one.
    pacer.limited(1_000, sentBefore);
    expect(pacer.state.rate).toBe(8.5);
    // Sent at the new rate and refused: lowered again, at once.
    clock.advance(100);
    pacer.limited(1_000, clock.now() - 10);
    expect(pacer.state.rate).toBeCloseTo(7.225, 5);
    acceptFor(1_000, 100);
    const climbed = pacer.state.rate!;
    expect(climbed).toBeGreaterThan(7.225);
    // One request in the next 4 s: a rate not used proves nothing, so none is raised past twice that one.
    clock.advance(4_000);
    pacer.accepted();
    expect(pacer.state.rate).toBeCloseTo(climbed, 5);
  });

  test("a turn asked for `ahead` goes before the turns already waiting, after those ahead themselves", async () => {
    const pacer = new Pacer({ cap: 10, now: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    const turns = ["a", "b", "c"].map((name) => pacer.turn().then(() => order.push(name)));
    turns.push(pacer.turn(undefined, true).then(() => order.push("list")));
    turns.push(pacer.turn(undefined, true).then(() => order.push("list2")));
    await Promise.all(turns);
    // The first turn went at once; the lists took the next ones.
    expect(order).toEqual(["a", "list", "list2", "b", "c"]);
  });

  test("a 429's Retry-After pauses every later turn, with up to a fifth more at random", async () => {
    const pacer = new Pacer({ random: () => 1, now: clock.now, sleep: clock.sleep });
    pacer.accepted();
    const started = clock.now();
    pacer.limited(100);
    await pacer.turn();
    // 100 ms x 1.2.
    expect(clock.now() - started).toBe(120);
  });

  test("a cap spaces requests from the first one", async () => {
    const pacer = new Pacer({ cap: 50, now: clock.now, sleep: clock.sleep });
    const started = clock.now();
    await Promise.all(Array.from({ length: 11 }, () => pacer.turn()));
    // The 11th turn comes 10 x 20 ms after the first.
    expect(clock.now() - started).toBe(200);
    expect(pacer.state.rate).toBe(50);
  });

  test("forget() starts it afresh, as a new provider process: what a 429 taught it, and when, no longer paces a turn; the cap stays", async () => {
    const pacer = new Pacer({ random: () => 0, now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 5; i++) pacer.accepted();
    pacer.limited(60_000);
    expect(pacer.state).toEqual({ rate: expect.any(Number), limited: 1, limit: expect.any(Number) });
    pacer.forget();
    expect(pacer.state).toEqual({ rate: undefined, limited: 0 });
    const started = clock.now();
    await Promise.all(Array.from({ length: 4 }, () => pacer.turn()));
    expect(clock.now() - started).toBe(0);
    pacer.cap = 50;
    pacer.forget();
    expect(pacer.state.rate).toBe(50);
  });
});

/** A seeded generator of numbers in [0, 1), so a simulated run can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * P workers sending `total` requests through a pacer to a token bucket of `perSecond`, in
 * virtual time (a discrete-event clock): how long they take, and how many 429s they met.
 * `refusedAtRandom`: besides the bucket, that share of requests is refused whatever the rate
 * (a gateway's stray 429s), drawn from `seed`.
 */
async function simulate(P: number, total: number, perSecond: number, refusedAtRandom = 0, seed?: number) {
  let now = 0;
  let seq = 0;
  const random = seed === undefined ? Math.random : seeded(seed);
  const timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  const sleep = (ms: number) => new Promise<void>((resolve) => timers.push({ at: now + Math.max(0, ms), seq: seq++, resolve }));
  const pacer = new Pacer({ now: () => now, sleep, random });
  let tokens = perSecond;
  let filledAt = 0;
  let refused = 0;
  let next = 0;
  const take = () => {
    tokens = Math.min(perSecond, tokens + ((now - filledAt) / 1000) * perSecond);
    filledAt = now;
    return tokens >= 1 ? (tokens--, true) : false;
  };
  const worker = async () => {
    while (next < total) {
      next++;
      for (;;) {
        const sentAt = await pacer.turn();
        // The round trip: 30 ms to the service, 30 ms back.
        await sleep(30);
        const taken = random() >= refusedAtRandom && take();
        await sleep(30);
        if (taken) {
          pacer.accepted();
          pacer.done();
          break;
        }
        refused++;
        pacer.limited(1000, sentAt);
        pacer.done();
        await sleep(1000 * (1 + 0.2 * random()));
      }
    }
  };
  let done = false;
  void Promise.all(Array.from({ length: P }, worker)).then(() => (done = true));
  while (!done) {
    await new Promise((r) => setImmediate(r));
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    const timer = timers.shift();
    if (!timer) continue;
    now = Math.max(now, timer.at);
    timer.resolve();
  }
  return { seconds: now / 1000, refused };
}

describe("simulated: a token bucket of 10 a second", () => {
  test.each([
    [250, 8],
    [250, 64],
    [250, 200],
    [1000, 200],
  ])("%i requests at P %i take within 1.1x the time the limit imposes, 429s beyond the first wave few", async (total, P) => {
    const { seconds, refused } = await simulate(P, total, 10);
    expect(seconds / (total / 10)).toBeLessThanOrEqual(1.1);
    // The first wave meets the limit unknown: P less the bucket's 10 are refused.
    expect(refused - Math.max(0, P - 10)).toBeLessThan(total / 5);
  });

  // A wave of P requests sent at once met the limit unknown: all but the bucket's 10 were refused
  // (54 at P 64), and each 429 is a request the service counts. Once the rate was found, the cubic
  // climbed back past it within seconds and met it with a run of 429s (one a turn, lowered once
  // a second): 67 refusals in all of 125 requests at P 64, 13 at P 8.
  test.each([
    [125, 64, 22],
    [250, 64, 28],
    [1000, 200, 60],
  ])(
    "%i requests at P %i: at most %i 429s (a window in flight until the first, one lowering for a rate's refusals)",
    async (total, P, most) => {
      for (const seed of [1, 2, 3]) {
        const { seconds, refused } = await simulate(P, total, 10, 0, seed);
        expect(seconds / (total / 10)).toBeLessThanOrEqual(1.1);
        expect(refused).toBeLessThanOrEqual(most);
      }
    },
  );
});

// A 429 that says nothing of the rate (a gateway's stray refusal, a neighbour's burst) once
// set the rate to what the last second happened to carry: a refusal after the first two
// requests held a stack of 50 subnets at one request a second, minutes instead of seconds.
describe("simulated: 5% of requests refused at random, no limit", () => {
  test.each([1, 2, 3, 4, 5])("seed %i: 200 requests at P 8 are slowed seconds, not minutes", async (seed) => {
    const { seconds, refused } = await simulate(8, 200, 1e9, 0.05, seed);
    expect(refused).toBeGreaterThan(0);
    // Unpaced, with each refused request waiting its own Retry-After: about 3 s.
    expect(seconds).toBeLessThan(30);
  });
});

describe("the client under the service's rate limit", () => {
  let server: TestServer | undefined;
  let realClock: () => void;
  beforeEach(() => {
    realClock = useClock(clock);
  });
  afterEach(async () => {
    realClock();
    await closeAllPools();
    await server?.close();
    server = undefined;
  });

  test("100 requests at once against 20 a second: none fails, few are refused, and the pacer learned the limit", async () => {
    // A token bucket as the service keeps one per key: 20 a second, bursts of 20.
    const perSecond = 20;
    let tokens = perSecond;
    let at = clock.now();
    let refused = 0;
    server = await startTestServer(() => {
      const now = clock.now();
      tokens = Math.min(perSecond, tokens + ((now - at) / 1000) * perSecond);
      at = now;
      if (tokens < 1) {
        refused++;
        return { status: 429, headers: { "retry-after": "1" }, body: { exception_class: "TooManyRequests", message: "slow down" } };
      }
      tokens -= 1;
      return { body: { id: "x" } };
    });
    const pacer = new Pacer();
    const client = new CimsClient({
      apiUrl: new URL(server.url),
      apiKey: "k-pacer",
      // Few retries: a 429 must not count against them (it is retried until the deadline).
      maxRetries: 1,
      connectTimeoutMs: 1_000,
      requestTimeoutMs: 5_000,
      taskPath: "/t/{task_id}",
      pacer,
    });
    const results = await Promise.allSettled(Array.from({ length: 100 }, () => client.record("GET", "/cloud/v1/subnets/1/1/x")));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // The first wave meets the limit unknown: 80 of the 100 are refused. Paced, few more are;
    // without pacing, every request still waiting retries together after each Retry-After: about 200.
    expect(refused).toBeLessThan(100);
    expect(pacer.state.rate).toBeGreaterThan(perSecond / 3);
    // Between 429s the rate climbs, never past twice what the service took in the last second,
    // which a bucket of 20 (full at the start) and 20 a second holds to 40.
    expect(pacer.state.rate).toBeLessThanOrEqual(perSecond * 4);
  }, 30_000);
});
