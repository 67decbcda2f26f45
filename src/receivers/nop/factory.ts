// The nop receiver: produces nothing, as the Collector's; keeps a pipeline valid without a listener.
import Type from 'typebox';
import type { ReceiverFactory } from '../../runtime/component.js';

const schema = Type.Object({}, { additionalProperties: false });

export const nopReceiverFactory: ReceiverFactory<typeof schema> = {
  kind: 'receiver',
  type: 'nop',
  description: 'Receives nothing; a placeholder that keeps a pipeline valid.',
  stability: { logs: 'beta', traces: 'beta', metrics: 'beta' },
  schema,
  create() {
    return { start: async () => {}, shutdown: async () => {} };
  },
};
