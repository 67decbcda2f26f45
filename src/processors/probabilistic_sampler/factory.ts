// The probabilistic_sampler processor: keeps a percentage of spans and log records, decided by
// their trace id (or a record attribute) so that every gateway with the same settings keeps the
// same traces, as the Collector's. Dropped items are counted, not refused: the client is answered
// as if they had been kept. A batch left empty goes no further.
import type { Counter } from '@opentelemetry/api';
import type { Signal } from '../../model/signal.js';
import { withRows } from '../../model/rewrite.js';
import type { ComponentContext, ProcessorFactory } from '../../runtime/component.js';
import { probabilisticSamplerSchema, samplerSettings, validateProbabilisticSampler, type ProbabilisticSamplerConfig } from './config.js';
import { sampleLogs } from './logs.js';
import { makeSampler, Report } from './sampler.js';
import { sampleSpans } from './spans.js';

/** Settings the Collector takes without complaint but that do nothing in this combination (there too): said once at start. */
function warnUnused(config: ProbabilisticSamplerConfig, ctx: ComponentContext): void {
  if (!ctx.signals.includes('logs')) return;
  if (config.mode === 'hash_seed' && config.attribute_source === 'record' && config.from_attribute === '') {
    ctx.logger.warn('attribute_source is record but from_attribute is not set: no log record has randomness, so fail_closed decides every one; set from_attribute to the attribute to hash');
  } else if (config.mode !== 'hash_seed' && (config.attribute_source === 'record' || config.from_attribute !== '')) {
    ctx.logger.warn({ mode: config.mode }, 'attribute_source and from_attribute apply to mode hash_seed only; in this mode log records are sampled by trace id (or their sampling.randomness)');
  }
}

/** Counts a batch's decisions, once per policy and outcome, and logs its problems in one line. */
function reporter(ctx: ComponentContext, signal: Signal, counter: Counter | undefined) {
  const what = signal === 'logs' ? 'log records' : 'spans';
  return (report: Report): void => {
    if (counter !== undefined) for (const { policy, sampled, count } of report.counts.values()) counter.add(count, { policy, sampled: String(sampled), processor: ctx.id });
    if (report.first === undefined) return;
    // Most are the sampler's ordinary conditions (no trace id, say): debug, as the Collector logs them.
    ctx.logger[report.unusual ? 'info' : 'debug']({ items: report.problems, err: report.first }, `Some ${what} could not be sampled as usual: fail_closed decided them, or their threshold stayed as it came`);
  };
}

export const probabilisticSamplerProcessorFactory: ProcessorFactory<typeof probabilisticSamplerSchema> = {
  kind: 'processor',
  type: 'probabilistic_sampler',
  description: 'Keeps a percentage of spans and log records, decided by trace id or a record attribute (the Collector\'s probabilistic_sampler processor).',
  stability: { logs: 'alpha', traces: 'alpha' },
  schema: probabilisticSamplerSchema,
  validate: validateProbabilisticSampler,
  create(config, ctx, next) {
    warnUnused(config, ctx);
    const settings = samplerSettings(config);
    const sampler = makeSampler(settings);
    const logs = { sampler, failClosed: config.fail_closed, priorityAttribute: config.sampling_priority, precision: config.sampling_precision };
    const meter = ctx.telemetry.enabled('basic') ? ctx.telemetry.meter('otelgate/processor') : undefined;
    const reportSpans = reporter(ctx, 'traces', meter?.createCounter('otelcol_processor_probabilistic_sampler_count_traces_sampled', { description: 'Count of traces that were sampled or not' }));
    const reportLogs = reporter(ctx, 'logs', meter?.createCounter('otelcol_processor_probabilistic_sampler_count_logs_sampled', { description: 'Count of logs that were sampled or not' }));

    return {
      start: async () => {},
      shutdown: async () => {},
      consume(batch, consumeCtx) {
        let out: typeof batch;
        if (batch.signal === 'traces') {
          const report = new Report();
          out = withRows(batch, sampleSpans(batch.rows, sampler, config.fail_closed, report));
          reportSpans(report);
        } else if (batch.signal === 'logs') {
          const report = new Report();
          out = withRows(batch, sampleLogs(batch.rows, logs, report));
          reportLogs(report);
        } else {
          out = batch;
        }
        if (out.rows.length === 0) return Promise.resolve();
        return next.consume(out, consumeCtx);
      },
    };
  },
};
