// Time() without a location reads its text in the process's zone (Go's time.Local), which
// otelgate reads once at start: the suite runs in UTC, so this case loads the modules again under
// another TZ to see that default at work.
import { afterAll, describe, expect, it, vi } from 'vitest';

describe('the system zone', () => {
  afterAll(() => {
    process.env.TZ = 'UTC';
    vi.resetModules();
  });

  it('is where a Time() without a location is read', async () => {
    process.env.TZ = 'Asia/Tokyo';
    vi.resetModules();
    const { LOCAL_ZONE } = await import('../../src/ottl/zones.js');
    const { valueOf } = await import('./run.js');
    expect(LOCAL_ZONE).toBe('Asia/Tokyo');
    expect(valueOf('UnixNano(Time("2023-05-26 12:00:00", "%Y-%m-%d %H:%M:%S"))')).toBe(BigInt(Date.parse('2023-05-26T03:00:00Z')) * 1_000_000n);
  });
});
