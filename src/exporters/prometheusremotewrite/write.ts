// Prometheus remote-write 1.0 request bodies: prompb.WriteRequest (timeseries = 1; in each,
// labels = 1 and samples = 2; a sample's value = 1 as a double, timestamp = 2 in milliseconds),
// split so that no body is over max_batch_size_bytes, as the Collector splits them. A series
// larger than the limit goes alone.
import { Writer } from '../../otlp/protobuf/writer.js';
import { WIRE_I64, WIRE_LEN, WIRE_VARINT } from '../../otlp/wire.js';
import type { Series } from './translate.js';

/** Prometheus's staleness marker: a NaN with these bits, which a NaN made in JS does not have. */
const STALE_NAN = 0x7ff0000000000002n;

const writer = new Writer();

function writeSeries(w: Writer, series: Series): void {
  const at = w.begin(1);
  for (const [name, value] of series.labels) {
    const label = w.begin(1);
    w.tag(1, WIRE_LEN);
    w.string(name);
    w.tag(2, WIRE_LEN);
    w.string(value);
    w.end(label);
  }
  for (const sample of series.samples) {
    const s = w.begin(2);
    w.tag(1, WIRE_I64);
    if (sample.stale) w.fixed64(STALE_NAN);
    else w.double(sample.value);
    if (sample.timestampMs !== 0) {
      w.tag(2, WIRE_VARINT);
      if (sample.timestampMs > 0) w.varint(sample.timestampMs);
      else w.int64(BigInt(sample.timestampMs));
    }
    w.end(s);
  }
  w.end(at);
}

/** The WriteRequests of `series`, each at most `maxBytes` (uncompressed) unless one series alone is larger. */
export function writeRequests(series: readonly Series[], maxBytes: number): Buffer[] {
  const w = writer;
  w.reset();
  const requests: Buffer[] = [];
  let start = 0;
  for (const one of series) {
    const before = w.pos;
    writeSeries(w, one);
    if (w.pos - start > maxBytes && before > start) {
      requests.push(Buffer.from(w.buf.subarray(start, before)));
      start = before;
    }
  }
  if (w.pos > start) requests.push(Buffer.from(w.buf.subarray(start, w.pos)));
  w.rewind();
  return requests;
}
