// A running process's peak memory from /proc, as the benchmarks read it too.
import { readFileSync } from 'node:fs';

/** Peak resident memory (VmHWM) in bytes. */
export function peakRss(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}
