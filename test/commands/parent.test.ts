// The npm watch in process, on a fake clock: it fires only under npm, and only when the watched
// processes are gone; without /proc it watches the parent id alone, so it never fires by mistake.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchNpmParent } from '../../src/commands/parent.js';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('watchNpmParent', () => {
  it('does nothing outside npm', () => {
    const onGone = vi.fn();
    watchNpmParent(onGone, {}, '/proc');
    vi.advanceTimersByTime(10_000);
    expect(onGone).not.toHaveBeenCalled();
  });

  it('under npm, with the parent alive, does not fire', () => {
    const onGone = vi.fn();
    watchNpmParent(onGone, { npm_lifecycle_event: 'start' }, '/proc');
    vi.advanceTimersByTime(10_000);
    expect(onGone).not.toHaveBeenCalled();
  });

  it('without /proc, does not take the missing files for exited processes', () => {
    const onGone = vi.fn();
    watchNpmParent(onGone, { npm_lifecycle_event: 'start' }, '/nonexistent-proc');
    vi.advanceTimersByTime(10_000);
    expect(onGone).not.toHaveBeenCalled();
  });

  it('fires once when a watched process is gone', () => {
    // A /proc in which the parent has no entry stands for a parent that has exited.
    const onGone = vi.fn();
    const proc = mkProc();
    watchNpmParent(onGone, { npm_lifecycle_event: 'start' }, proc.dir);
    vi.advanceTimersByTime(2000);
    expect(onGone).not.toHaveBeenCalled();
    proc.removeParent();
    vi.advanceTimersByTime(2000);
    expect(onGone).toHaveBeenCalledTimes(1);
  });
});

/** A stand-in /proc holding this process and its parent (not a shell), both running. */
function mkProc(): { dir: string; removeParent(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'otelgate-proc-'));
  for (const [pid, parent] of [
    [process.pid, process.ppid],
    [process.ppid, 1],
  ] as const) {
    mkdirSync(join(dir, String(pid)));
    writeFileSync(join(dir, String(pid), 'stat'), `${pid} (node) S ${parent} 0 0`);
    writeFileSync(join(dir, String(pid), 'comm'), 'node\n');
  }
  return { dir, removeParent: () => rmSync(join(dir, String(process.ppid)), { recursive: true }) };
}
