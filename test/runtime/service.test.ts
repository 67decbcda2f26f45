import { describe, expect, it } from 'vitest';
import { PermanentError, RetryableError, ShuttingDownError } from '../../src/errors.js';
import type { Batch } from '../../src/model/batch.js';
import { Registry } from '../../src/runtime/registry.js';
import { Service } from '../../src/runtime/service.js';
import { captureExporter, recorder, tagProcessor, testExtension, testReceiver, type Recorder } from '../helpers/components.js';
import { configFrom } from '../helpers/config.js';
import { memoryLogger } from '../helpers/logger.js';
import { exclusiveCopy, logBatch, metricBatch } from '../helpers/rows.js';
import { settles, waitUntil } from '../helpers/wait.js';
import { consumeContext } from '../../src/runtime/component.js';

const PIPELINE = `
receivers: {testin: }
processors: {tag/first: {tag: first}, tag/second: {tag: second}}
exporters: {capture/a: , capture/b: }
extensions: {testext: }
service:
  extensions: [testext]
  pipelines:
    logs: {receivers: [testin], processors: [tag/first, tag/second], exporters: [capture/a, capture/b]}
    metrics: {receivers: [testin], exporters: [capture/b]}
`;

function service(rec: Recorder, text = PIPELINE, exporter = captureExporter(rec), ext = testExtension(rec)): Service {
  const registry = new Registry([testReceiver(rec), tagProcessor(rec), exporter, ext]);
  return new Service(configFrom(text, registry), memoryLogger().logger);
}

function tags(batch: Batch | undefined): unknown[] {
  return batch?.signal === 'logs' ? batch.rows.map((row) => row.attributes['tags']) : [];
}

describe('Service', () => {
  it('pushes a batch through receiver, processors in order, and both exporters', async () => {
    const rec = recorder();
    const svc = service(rec);
    await svc.start();
    const batch = logBatch(3, 'shop');
    await svc.consumer('testin', 'logs')?.consume(batch, consumeContext());

    const [a] = rec.batches.get('capture/a') ?? [];
    const [b] = rec.batches.get('capture/b') ?? [];
    expect(rec.batches.get('capture/a')).toHaveLength(1);
    expect(rec.batches.get('capture/b')).toHaveLength(1);
    expect(a).toBe(b);
    expect(a?.project).toBe('shop');
    expect(a?.rows).toHaveLength(3);
    expect(tags(a)).toEqual(['first,second', 'first,second', 'first,second']);
    expect(batch.rows.map((row) => row.attributes['tags'])).toEqual([undefined, undefined, undefined]);
    await svc.shutdown();
  });

  it('tells a receiver whether a pipeline behind it sends OTLP protobuf, through processors, so that it keeps protobuf bodies only then', () => {
    for (const sendsProtobuf of [true, false]) {
      const rec = recorder();
      const svc = service(rec, PIPELINE, captureExporter(rec, { sendsProtobuf }));
      expect([svc.consumer('testin', 'logs')?.sendsProtobuf, svc.consumer('testin', 'metrics')?.sendsProtobuf]).toEqual([sendsProtobuf, sendsProtobuf]);
    }
  });

  it('routes each signal only to its own pipelines, and one exporter instance serves several', async () => {
    const rec = recorder();
    const svc = service(rec);
    await svc.start();
    await svc.consumer('testin', 'metrics')?.consume(metricBatch(), consumeContext());
    expect(rec.batches.get('capture/a')).toBeUndefined();
    expect(rec.batches.get('capture/b')?.map((b) => b.signal)).toEqual(['metrics']);
    expect(svc.consumer('testin', 'traces')).toBeUndefined();
    expect(rec.events.filter((e) => e === 'start capture/b')).toHaveLength(1);
    await svc.shutdown();
  });

  it('feeds every pipeline a receiver is in', async () => {
    const rec = recorder();
    const svc = service(
      rec,
      `
receivers: {testin: }
processors: {tag/x: {tag: x}, tag/y: {tag: y}}
exporters: {capture/x: , capture/y: }
service:
  pipelines:
    logs/x: {receivers: [testin], processors: [tag/x], exporters: [capture/x]}
    logs/y: {receivers: [testin], processors: [tag/y], exporters: [capture/y]}
`,
    );
    await svc.start();
    await svc.consumer('testin', 'logs')?.consume(logBatch(2), consumeContext());
    expect(tags(rec.batches.get('capture/x')?.[0])).toEqual(['x', 'x']);
    expect(tags(rec.batches.get('capture/y')?.[0])).toEqual(['y', 'y']);
    await svc.shutdown();
  });

  it('hands an exclusive batch to the one pipeline of a receiver as it is, and to each of several as one that is not exclusive', async () => {
    const rec = recorder();
    const svc = service(
      rec,
      `
receivers: {testin: , testin/two: }
exporters: {capture/x: , capture/y: , capture/z: }
service:
  pipelines:
    logs/x: {receivers: [testin], exporters: [capture/x]}
    logs/y: {receivers: [testin], exporters: [capture/y]}
    logs/z: {receivers: [testin/two], exporters: [capture/z]}
`,
    );
    await svc.start();
    const shared = exclusiveCopy(logBatch(2));
    await svc.consumer('testin', 'logs')?.consume(shared, consumeContext());
    const alone = exclusiveCopy(logBatch(2));
    await svc.consumer('testin/two', 'logs')?.consume(alone, consumeContext());
    await svc.shutdown();
    const [x, y] = [rec.batches.get('capture/x')?.[0], rec.batches.get('capture/y')?.[0]];
    expect([x?.exclusive, y?.exclusive]).toEqual([false, false]);
    expect(x?.rows).toBe(shared.rows);
    expect(y?.rows).toBe(shared.rows);
    expect(rec.batches.get('capture/z')?.[0]).toBe(alone);
  });

  it('starts extensions, exporters, processors (last first), receivers; shuts down in reverse', async () => {
    const rec = recorder();
    const svc = service(rec);
    await svc.start();
    expect(rec.events).toEqual(['start testext', 'start capture/a', 'start capture/b', 'start tag/second', 'start tag/first', 'start testin']);
    rec.events.length = 0;
    await expect(svc.shutdown()).resolves.toEqual({ clean: true, abandoned: 0, stopped: expect.any(Promise) });
    expect(rec.events).toEqual(['shutdown testin', 'shutdown tag/first', 'shutdown tag/second', 'shutdown capture/b', 'shutdown capture/a', 'shutdown testext']);
  });

  it('waits for a batch under way before shutting processors and exporters down, then refuses new ones', async () => {
    const rec = recorder();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const svc = service(rec, PIPELINE, captureExporter(rec, { gate }));
    await svc.start();
    const consumer = svc.consumer('testin', 'logs');
    const inFlight = consumer?.consume(logBatch(1), consumeContext());
    expect(await waitUntil(() => rec.events.includes('consume capture/b'))).toBe(true);
    expect(rec.events.slice(-2)).toEqual(['consume capture/a', 'consume capture/b']);

    let shutDown = false;
    const shutdown = svc.shutdown().then((result) => {
      shutDown = true;
      return result;
    });
    // The receivers stop first; processors and exporters wait for the batch, however long that takes.
    expect(await waitUntil(() => rec.events.includes('shutdown testin'))).toBe(true);
    expect(shutDown).toBe(false);
    expect(rec.events).not.toContain('shutdown capture/a');
    await expect(consumer?.consume(logBatch(1), consumeContext())).rejects.toBeInstanceOf(ShuttingDownError);

    release();
    await inFlight;
    await expect(shutdown).resolves.toEqual({ clean: true, abandoned: 0, stopped: expect.any(Promise) });
    const order = rec.events.filter((e) => e.startsWith('consumed') || e.startsWith('shutdown capture'));
    expect(order).toEqual(['consumed capture/a', 'consumed capture/b', 'shutdown capture/b', 'shutdown capture/a']);
  });

  it('gives up after the shutdown timeout and says how many batches were abandoned; stopped settles once they are done', async () => {
    const rec = recorder();
    let release: () => void = () => {};
    const svc = service(rec, PIPELINE, captureExporter(rec, { gate: new Promise<void>((resolve) => (release = resolve)) }));
    await svc.start();
    void svc.consumer('testin', 'logs')?.consume(logBatch(1), consumeContext());
    void svc.consumer('testin', 'logs')?.consume(logBatch(1), consumeContext());
    const result = await svc.shutdown(100);
    expect(result).toEqual({ clean: false, abandoned: 2, stopped: expect.any(Promise) });
    // What a reload waits for before it starts anything again: every component's shutdown, late.
    let stopped = false;
    void result.stopped.then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    expect(await settles(result.stopped)).toBe(true);
    expect(rec.events.filter((e) => e.startsWith('shutdown'))).toEqual(['shutdown testin', 'shutdown tag/first', 'shutdown tag/second', 'shutdown capture/b', 'shutdown capture/a', 'shutdown testext']);
  });

  it('rejects when any exporter rejects; retryable unless every failure is permanent', async () => {
    const rec = recorder();
    const text = `
receivers: {testin: }
exporters: {capture/a: , capture/b: }
service:
  pipelines:
    logs: {receivers: [testin], exporters: [capture/a, capture/b]}
`;
    const retryable = service(rec, text, captureExporter(rec, { fail: new RetryableError('backend down') }));
    await retryable.start();
    await expect(retryable.consumer('testin', 'logs')?.consume(logBatch(1), consumeContext())).rejects.toBeInstanceOf(RetryableError);
    await retryable.shutdown();

    const permanent = service(rec, text, captureExporter(rec, { fail: new PermanentError('bad data') }));
    await permanent.start();
    const error = await permanent.consumer('testin', 'logs')?.consume(logBatch(1), consumeContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as Error).message).toBe('bad data; bad data');
    await permanent.shutdown();
  });

  it('stops what it started when a component fails to start', async () => {
    const rec = recorder();
    const svc = service(rec, PIPELINE, captureExporter(rec), testExtension(rec, true));
    await expect(svc.start()).rejects.toThrow('testext could not start: port in use');
    expect(rec.events).toEqual([]);

    const late = recorder();
    const failing = captureExporter(late);
    const original = failing.create;
    failing.create = (config, ctx) => {
      const exporter = original(config, ctx);
      if (ctx.id === 'capture/b') exporter.start = () => Promise.reject(new Error('no route to host'));
      return exporter;
    };
    const svc2 = service(late, PIPELINE, failing);
    await expect(svc2.start()).rejects.toThrow('capture/b could not start: no route to host');
    expect(late.events).toEqual(['start testext', 'start capture/a', 'shutdown capture/a', 'shutdown testext']);
  });
});
