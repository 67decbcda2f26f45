// Which own metrics are made: none at level none, and none without a reader to serve them (the
// hot path then records nothing nobody could read).
import { describe, expect, it } from 'vitest';
import { SelfMetrics } from '../../src/telemetry/metrics.js';
import { memoryLogger } from '../helpers/logger.js';

const reader = { pull: { exporter: { prometheus: { host: '127.0.0.1', port: 0 } } } };

describe('own metrics levels', () => {
  it('makes the metrics of the level in force and below, only with a reader', () => {
    const { logger } = memoryLogger();
    const basic = new SelfMetrics({ level: 'basic', readers: [reader] }, logger);
    expect([basic.enabled('basic'), basic.enabled('normal'), basic.enabled('detailed')]).toEqual([true, false, false]);
    const normal = new SelfMetrics({ level: 'normal', readers: [reader] }, logger);
    expect([normal.enabled('basic'), normal.enabled('normal'), normal.enabled('detailed')]).toEqual([true, true, false]);
    const none = new SelfMetrics({ level: 'none', readers: [reader] }, logger);
    expect(none.enabled('basic')).toBe(false);
    const unread = new SelfMetrics({ level: 'detailed', readers: [] }, logger);
    expect([unread.enabled('basic'), unread.enabled('normal'), unread.enabled('detailed')]).toEqual([false, false, false]);
  });
});
