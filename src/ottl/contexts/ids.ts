// Trace and span ids as OTTL's paths give them: bytes (all zero when absent, as pdata has them),
// from the lower-case hex otelgate's rows keep.
export const TRACE_ID_ZERO = new Uint8Array(16);
export const SPAN_ID_ZERO = new Uint8Array(8);

export const idBytes = (hex: string, zero: Uint8Array): Uint8Array => (hex === '' ? zero : Uint8Array.from(Buffer.from(hex, 'hex')));
