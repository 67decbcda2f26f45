// The simple JSON log endpoint as a protocol (../helper/protocol.ts): one path, JSON logs in the
// contract's loose form, answered 202 with the records accepted and skipped.
import { decodeSimpleLogs } from '../../simple/decode.js';
import { discardedWhole, exactPaths, unreadBody, type Done, type Protocol } from '../helper/protocol.js';
import { sendJson } from './respond.js';

function skippedMessage(done: Done): string {
  const whole = discardedWhole(done);
  if (whole !== undefined) return `${whole.charAt(0).toUpperCase()}${whole.slice(1)}.`;
  const unreadable = done.body.unreadable === undefined ? '' : `; part of the body could not be read (${done.body.unreadable})`;
  return `${done.rejected} record${done.rejected === 1 ? ' was' : 's were'} skipped: each needs a "message" (or "body"), and the body must be JSON${unreadable}.`;
}

export function simpleProtocol(path: string): Protocol {
  return exactPaths(
    new Map([
      [
        path,
        {
          signals: ['logs'],
          decode(read, input) {
            if (read.kind !== 'ok') return unreadBody(read);
            const { rows, ...facts } = decodeSimpleLogs(read.body, input.arrival, input.records);
            return { ...facts, rows: { logs: rows } };
          },
          answer(_req, res, done) {
            const body: Record<string, unknown> = { accepted: done.rows, skipped: done.rejected };
            if (done.rejected > 0) body['message'] = skippedMessage(done);
            sendJson(res, 202, body);
          },
        },
      ],
    ]),
  );
}
