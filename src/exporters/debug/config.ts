// Settings of the debug exporter, named and defaulted as the Collector's.
import Type, { type Static } from 'typebox';

export const debugSchema = Type.Object(
  {
    verbosity: Type.Enum(['basic', 'normal', 'detailed'], {
      default: 'basic',
      description: 'basic: one line of counts per batch; normal: also one line per record; detailed: every field of every record.',
    }),
    use_internal_logger: Type.Boolean({
      default: true,
      description: "Write through otelgate's own logger (stderr); false writes the records to stdout.",
    }),
  },
  { additionalProperties: false },
);

export type DebugConfig = Static<typeof debugSchema>;
