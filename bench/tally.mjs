// What a load generator counts, the same for each protocol: every answer by status, and the
// latencies and statuses of those answered inside the measured window; then its one JSON line.
export class Tally {
  constructor(warmupMs, durationMs) {
    this.started = performance.now();
    this.measureFrom = this.started + warmupMs;
    this.stopAt = this.measureFrom + durationMs;
    this.durationMs = durationMs;
    this.latencies = new Float64Array(1 << 16);
    this.measured = 0;
    this.statuses = {};
    // Every answer, in the window or not: what the server accepted in all (a queue delivers all of it).
    this.answered = {};
    this.errors = 0;
  }

  get over() {
    return performance.now() >= this.stopAt;
  }

  record(latency, status) {
    this.answered[status] = (this.answered[status] ?? 0) + 1;
    const now = performance.now();
    if (now < this.measureFrom || now > this.stopAt) return;
    if (this.measured === this.latencies.length) {
      const bigger = new Float64Array(this.latencies.length * 2);
      bigger.set(this.latencies);
      this.latencies = bigger;
    }
    this.latencies[this.measured++] = latency;
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
  }

  /** The results line the harness reads. */
  print(extra = {}) {
    const { measured } = this;
    const sorted = this.latencies.subarray(0, measured).sort();
    const at = (q) => (measured === 0 ? 0 : sorted[Math.min(measured - 1, Math.floor(q * measured))]);
    const elapsedMs = performance.now() - this.started;
    const line = { ...extra, requests: measured, seconds: this.durationMs / 1000, statuses: this.statuses, answered: this.answered, startedEpochMs: performance.timeOrigin + this.started, elapsedMs, errors: this.errors, p50: at(0.5), p99: at(0.99) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}
