// Settings of the memory_limiter processor, named and checked as the Collector's.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import { durationMs } from '../../config/duration.js';

export const memoryLimiterSchema = Type.Object(
  {
    check_interval: Type.String({ format: 'duration', default: '0s', description: 'How often memory use is measured; must be set, 1s is usual.' }),
    limit_mib: Type.Integer({ minimum: 0, default: 0, description: 'Hard limit in MiB; the soft limit is limit_mib - spike_limit_mib.' }),
    spike_limit_mib: Type.Integer({ minimum: 0, default: 0, description: 'Headroom in MiB below the hard limit; default 20% of limit_mib.' }),
    limit_percentage: Type.Integer({ minimum: 0, maximum: 100, default: 0, description: 'Hard limit as a percentage of the memory available to the process (cgroup limit, else total).' }),
    spike_limit_percentage: Type.Integer({ minimum: 0, maximum: 100, default: 0, description: 'Headroom as a percentage; default 20% of limit_percentage.' }),
  },
  { additionalProperties: false },
);

export type MemoryLimiterConfig = Static<typeof memoryLimiterSchema>;

export function validateMemoryLimiter(config: MemoryLimiterConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (durationMs(config.check_interval) <= 0) problems.push({ path: ['check_interval'], message: 'must be greater than zero; 1s is the usual choice' });
  if (config.limit_mib === 0 && config.limit_percentage === 0) {
    problems.push({ path: [], message: 'set a memory limit: limit_mib (MiB) or limit_percentage (% of available memory)' });
  }
  if (config.limit_mib > 0 && config.spike_limit_mib >= config.limit_mib) {
    problems.push({ path: ['spike_limit_mib'], message: `must be smaller than limit_mib (${config.limit_mib})` });
  }
  if (config.limit_percentage > 0 && config.spike_limit_percentage >= config.limit_percentage) {
    problems.push({ path: ['spike_limit_percentage'], message: `must be smaller than limit_percentage (${config.limit_percentage})` });
  }
  return problems;
}

export interface Limits {
  hardBytes: number;
  softBytes: number;
}

const MIB = 1024 * 1024;

/** Hard and soft limits in bytes; percentages are of `availableBytes`. */
export function limitsOf(config: MemoryLimiterConfig, availableBytes: number): Limits {
  if (config.limit_mib > 0) {
    const spike = config.spike_limit_mib > 0 ? config.spike_limit_mib : config.limit_mib / 5;
    return { hardBytes: config.limit_mib * MIB, softBytes: (config.limit_mib - spike) * MIB };
  }
  const spike = config.spike_limit_percentage > 0 ? config.spike_limit_percentage : config.limit_percentage / 5;
  return { hardBytes: (availableBytes * config.limit_percentage) / 100, softBytes: (availableBytes * (config.limit_percentage - spike)) / 100 };
}
