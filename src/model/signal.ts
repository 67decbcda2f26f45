// The three kinds of telemetry a pipeline carries; simple JSON logs and error-reporting events are logs.
export const SIGNALS = ['logs', 'traces', 'metrics'] as const;
export type Signal = (typeof SIGNALS)[number];

export function isSignal(value: string): value is Signal {
  return (SIGNALS as readonly string[]).includes(value);
}
