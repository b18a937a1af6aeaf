// Counters for benchmarks and tests: requests by route and status, connections opened.
export class Metrics {
  private requests: Record<string, number> = {};
  private connections = 0;
  private open = 0;
  private peakOpen = 0;

  request(method: string, route: string, status: number): void {
    const key = `${method} ${route} ${status}`;
    this.requests[key] = (this.requests[key] ?? 0) + 1;
  }

  /** A connection opened; call the returned function when it closes. */
  connection(): () => void {
    this.connections++;
    this.open++;
    this.peakOpen = Math.max(this.peakOpen, this.open);
    return () => {
      this.open--;
    };
  }

  reset(): void {
    this.requests = {};
    this.connections = 0;
    this.peakOpen = this.open;
  }

  /** `connections`: opened since the last reset; `peak_open_connections`: most open at once. */
  snapshot(): { requests: Record<string, number>; connections: number; peak_open_connections: number; total_requests: number } {
    const total = Object.values(this.requests).reduce((a, b) => a + b, 0);
    return { requests: { ...this.requests }, connections: this.connections, peak_open_connections: this.peakOpen, total_requests: total };
  }
}
