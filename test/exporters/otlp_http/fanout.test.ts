// A logs pipeline that fans out to two otlp_http exporters, one of whose backends is down: the
// healthy one keeps getting everything, and once the other's queue is full the client is told 503
// (Retry-After: 5). The fan-out's documented rule (docs/architecture.md): a 503 promises that
// retrying is safe, not that nothing was kept, so a request answered 503 has still been delivered
// to the healthy backend, and its retry arrives there a second time.
import { describe, expect, it } from 'vitest';
import { startBackend, type Backend } from '../../helpers/backend.js';
import { FAST_RETRY, forwardingHead, arrivals, bodies, send, startForwarder, workspace, type Workspace, stoppedAfterEach } from '../../helpers/forwarder.js';
import { waitUntil } from '../../helpers/wait.js';

const { running, backends } = stoppedAfterEach();

function fanoutConfig(ws: Workspace, up: Backend, down: Backend): string {
  return `${forwardingHead(ws.keysFile)}
exporters:
  otlp_http/up:
    endpoint: ${up.url}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage}
  otlp_http/down:
    endpoint: ${down.url}
    ${FAST_RETRY}
    sending_queue: {storage: file_storage, queue_size: 5, num_consumers: 1}
service:
  extensions: [apikeyauth, file_storage]
  pipelines:
    logs: {receivers: [ingest], exporters: [otlp_http/up, otlp_http/down]}
`;
}

/** Each request's two records. */
const records = (i: number): string[] => [`fan-${i}-a`, `fan-${i}-b`];

/** `times` arrivals of every record of these requests. */
const expected = (requests: readonly number[], times: (i: number) => number): Map<string, number> =>
  new Map(requests.flatMap((i) => records(i).map((body): [string, number] => [body, times(i)])));

const sorted = (counts: Map<string, number>): [string, number][] => [...counts].sort(([a], [b]) => a.localeCompare(b));

describe('otlp_http fan-out with one backend down', () => {
  it('keeps delivering to the healthy backend, answers 503 once the down one\'s queue is full (delivered to the healthy one all the same), and delivers the whole queue once the backend is back', async () => {
    const up = await startBackend();
    const down = await startBackend();
    backends.push(up, down);
    await down.stop();
    const ws = workspace('fanout');
    const gate = await startForwarder(ws, fanoutConfig(ws, up, down), running);

    const REQUESTS = 12;
    const answers = [];
    for (let i = 0; i < REQUESTS; i++) answers.push(await send(gate, records(i)));
    // The down exporter's queue takes 5 requests (the one its consumer keeps retrying included).
    expect(answers).toEqual([
      ...Array.from({ length: 5 }, () => ({ status: 202, retryAfter: undefined })),
      ...Array.from({ length: 7 }, () => ({ status: 503, retryAfter: '5' })),
    ]);
    const accepted = [0, 1, 2, 3, 4];
    const refused = [5, 6, 7, 8, 9, 10, 11];

    // The healthy backend gets every request, those answered 503 too, while the other is still down.
    const all = Array.from({ length: REQUESTS }, (_, i) => i);
    expect(await waitUntil(() => arrivals(up).size === 2 * REQUESTS)).toBe(true);
    expect(sorted(arrivals(up))).toEqual(sorted(expected(all, () => 1)));
    expect(up.received.map((r) => [r.status, r.rows.length])).toEqual(all.map(() => [200, 2]));
    expect(down.received).toEqual([]);

    // Back up: the down backend gets exactly what its queue held, the oldest first.
    await down.start();
    expect(await waitUntil(() => arrivals(down).size === 2 * accepted.length)).toBe(true);
    expect(sorted(arrivals(down))).toEqual(sorted(expected(accepted, () => 1)));
    expect(bodies(down).slice(0, 2)).toEqual(records(0));

    // The client retries what it was answered 503 for, as the 503 tells it to (one at a time, each
    // once the one before has arrived: the down queue holds 5): both backends now take it, and the
    // healthy one has it twice.
    for (const i of refused) {
      expect(await send(gate, records(i))).toEqual({ status: 202, retryAfter: undefined });
      expect(
        await waitUntil(() => {
          const got = arrivals(down);
          return records(i).every((body) => got.has(body));
        }),
      ).toBe(true);
    }
    expect(await waitUntil(() => bodies(up).length === 2 * (REQUESTS + refused.length))).toBe(true);
    expect(sorted(arrivals(up))).toEqual(sorted(expected(all, (i) => (refused.includes(i) ? 2 : 1))));
    expect(sorted(arrivals(down))).toEqual(sorted(expected(all, () => 1)));
  }, 60_000);
});
