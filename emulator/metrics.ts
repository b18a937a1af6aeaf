// Counters for benchmarks and tests: requests by route and status, connections opened.
export class Metrics {
  private requests: Record<string, number> = {};
  private connections = 0;

  request(method: string, route: string, status: number): void {
    const key = `${method} ${route} ${status}`;
    this.requests[key] = (this.requests[key] ?? 0) + 1;
  }

  connection(): void {
    this.connections++;
  }

  reset(): void {
    this.requests = {};
    this.connections = 0;
  }

  snapshot(): { requests: Record<string, number>; connections: number; total_requests: number } {
    const total = Object.values(this.requests).reduce((a, b) => a + b, 0);
    return { requests: { ...this.requests }, connections: this.connections, total_requests: total };
  }
}
