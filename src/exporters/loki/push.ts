// Loki's JSON push body, for `encoding: json`: made from the PushRequest the queue holds, read back.
export interface LokiEntry {
  timeUnixNano: bigint;
  line: string;
  /** Its structured metadata: name, value, name, value… */
  metadata: readonly string[];
}

export interface LokiStream {
  /** The label set in Loki's form, {name="value", …}. */
  labels: string;
  pairs: readonly (readonly [string, string])[];
  entries: LokiEntry[];
}

function metadataObject(entry: LokiEntry): Record<string, string> | undefined {
  if (entry.metadata.length === 0) return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let i = 0; i < entry.metadata.length; i += 2) out[entry.metadata[i] as string] = entry.metadata[i + 1] as string;
  return out;
}

/** Loki's JSON push: {"streams": [{"stream": {labels}, "values": [["<unix ns>", "<line>", {metadata}?]]}]}. */
export function jsonPush(streams: readonly LokiStream[]): Buffer {
  const body = {
    streams: streams.map((stream) => ({
      stream: Object.fromEntries(stream.pairs),
      values: stream.entries.map((entry) => {
        const metadata = metadataObject(entry);
        return metadata === undefined ? [String(entry.timeUnixNano), entry.line] : [String(entry.timeUnixNano), entry.line, metadata];
      }),
    })),
  };
  return Buffer.from(JSON.stringify(body));
}
