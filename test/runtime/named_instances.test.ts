// The shipped config loader and the real debug exporter: two named instances of one type both get the data.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/commands/config.js';
import { Service } from '../../src/runtime/service.js';
import { memoryLogger } from '../helpers/logger.js';
import { logBatch } from '../helpers/rows.js';
import { consumeContext } from '../../src/runtime/component.js';

describe('two named instances of one exporter type', () => {
  it('are both started and both receive every batch', async () => {
    const resolved = readConfig({ files: ['testdata/config/good_two_debug.yaml'], sets: [] });
    const { logger, lines } = memoryLogger();
    const service = new Service(resolved, logger);
    await service.start();
    await service.consumer('nop', 'logs')?.consume(logBatch(4), consumeContext());
    await service.shutdown();

    const counts = lines.filter((l) => l['msg'] === 'Logs').map((l) => [l['name'], l['log records'], l['resource logs']]);
    expect(counts.sort()).toEqual([
      ['debug/a', 4, 1],
      ['debug/b', 4, 1],
    ]);
    const records = lines.filter((l) => l['name'] === 'debug/a' && String(l['msg']).startsWith('ResourceLog'));
    expect(records).toHaveLength(1);
    expect(String(records[0]?.['msg']).split('\n').slice(2, 6)).toEqual([
      'order 0 placed order.id=1000 amount=12.5 paid=true',
      'order 1 placed order.id=1001 amount=12.5 paid=true',
      'order 2 placed order.id=1002 amount=12.5 paid=true',
      'order 3 placed order.id=1003 amount=12.5 paid=true',
    ]);
    expect(lines.filter((l) => l['name'] === 'debug/b' && String(l['msg']).startsWith('ResourceLog'))).toEqual([]);
  });
});
