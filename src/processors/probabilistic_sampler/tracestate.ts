// A span's W3C tracestate, read and written as the Collector's pkg/sampling does: the `ot` member's
// rv (randomness) and th (threshold) are parsed, every other member and OpenTelemetry value is
// carried through in its order. Written back, `ot` comes first, rv before th. A tracestate the
// Collector would refuse (bad syntax, too long, too many members, bad rv/th) is refused here too,
// with its message.
import { SamplingProblem, rValueToRandomness, tValue, tValueToThreshold } from './sampling.js';

const MAX_W3C_LENGTH = 1024;
const MAX_OTEL_LENGTH = 256;
/** The Collector counts empty members too, and refuses the 32nd: it allows at most 31. */
const MAX_MEMBERS = 32;
const MAX_KEY_LENGTH = 256;
const MAX_TENANT_LENGTH = 241;
const MAX_SYSTEM_LENGTH = 14;

const TOO_BIG = 'invalid tracestate size';
const SYNTAX = 'invalid syntax';

/** The OpenTelemetry member (`ot=`), parsed. */
export interface OTelTraceState {
  /** rv as it came (case kept), '' when absent. */
  rValue: string;
  randomness: bigint;
  /** th as it came until a sampler updates it, '' when absent. */
  tValue: string;
  threshold: bigint;
  /** Other `key:value` pairs of the member, in order. */
  readonly extra: [string, string][];
}

export interface W3CTraceState {
  ot: OTelTraceState;
  /** Other vendors' members, in order, trimmed. */
  readonly members: [string, string][];
}

const lcAlpha = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const digit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const keyChar = (c: number): boolean => lcAlpha(c) || digit(c) || c === 0x5f || c === 0x2d || c === 0x2a || c === 0x2f;
const nonBlank = (c: number): boolean => (c >= 0x21 && c <= 0x2b) || (c >= 0x2d && c <= 0x3c) || (c >= 0x3e && c <= 0x7e);
const otelValueChar = (c: number): boolean => lcAlpha(c) || (c >= 0x41 && c <= 0x5a) || digit(c) || c === 0x2e || c === 0x5f || c === 0x2d;

function every(s: string, from: number, test: (c: number) => boolean): boolean {
  for (let i = from; i < s.length; i++) if (!test(s.charCodeAt(i))) return false;
  return true;
}

function validW3CKey(key: string): boolean {
  const at = key.indexOf('@');
  if (at === -1) return key.length > 0 && lcAlpha(key.charCodeAt(0)) && every(key, 1, keyChar);
  const tenant = key.slice(0, at);
  const system = key.slice(at + 1);
  if (tenant === '' || system === '') return false;
  const first = tenant.charCodeAt(0);
  return (lcAlpha(first) || digit(first)) && lcAlpha(system.charCodeAt(0)) && every(tenant, 1, keyChar) && every(system, 1, keyChar);
}

function validW3CValue(value: string): boolean {
  if (value === '' || value.length > 256 || !nonBlank(value.charCodeAt(value.length - 1))) return false;
  return every(value.slice(0, -1), 0, (c) => c === 0x20 || nonBlank(c));
}

const trimOws = (s: string): string => s.replace(/^[ \t]+|[ \t]+$/g, '');

function validW3C(input: string): boolean {
  for (const raw of input.split(',')) {
    const member = trimOws(raw);
    if (member === '') continue;
    const eq = member.indexOf('=');
    if (eq < 1 || !validW3CKey(member.slice(0, eq)) || !validW3CValue(member.slice(eq + 1))) return false;
  }
  return true;
}

function validOTel(input: string): boolean {
  if (input === '' || input.endsWith(';')) return false;
  for (const member of input.split(';')) {
    const colon = member.indexOf(':');
    if (colon < 1) return false;
    if (!lcAlpha(member.charCodeAt(0)) || !every(member.slice(0, colon), 1, (c) => lcAlpha(c) || digit(c)) || !every(member, colon + 1, otelValueChar)) return false;
  }
  return true;
}

const emptyOTel = (): OTelTraceState => ({ rValue: '', randomness: 0n, tValue: '', threshold: 0n, extra: [] });

function parseOTel(input: string): OTelTraceState | SamplingProblem {
  if (input.length > MAX_OTEL_LENGTH) return new SamplingProblem(TOO_BIG);
  if (!validOTel(input)) return new SamplingProblem(SYNTAX);
  const ot = emptyOTel();
  const problems: string[] = [];
  for (const member of input.split(';')) {
    const colon = member.indexOf(':');
    const key = member.slice(0, colon);
    const value = member.slice(colon + 1);
    if (key === 'rv') {
      const randomness = rValueToRandomness(value);
      if (randomness instanceof SamplingProblem) {
        problems.push(randomness.message);
        ot.rValue = '';
      } else {
        ot.rValue = value;
        ot.randomness = randomness;
      }
    } else if (key === 'th') {
      const threshold = tValueToThreshold(value);
      if (threshold instanceof SamplingProblem) {
        problems.push(threshold.message);
        ot.tValue = '';
      } else {
        ot.tValue = value;
        ot.threshold = threshold;
      }
    } else {
      ot.extra.push([key, value]);
    }
  }
  return problems.length > 0 ? new SamplingProblem(problems.join('; ')) : ot;
}

/** A span's tracestate parsed; a problem when the Collector would not read it. '' is an empty state. */
export function parseTraceState(input: string): W3CTraceState | SamplingProblem {
  const state: W3CTraceState = { ot: emptyOTel(), members: [] };
  if (input === '') return state;
  if (input.length > MAX_W3C_LENGTH) return new SamplingProblem(TOO_BIG);
  if (!validW3C(input)) return new SamplingProblem(SYNTAX);
  const problems: string[] = [];
  const raw = input.split(',');
  // Go's scanner stops at the end of the text: a trailing comma opens no member.
  if (input.endsWith(',')) raw.pop();
  for (let i = 0; i < raw.length; i++) {
    if (i + 1 >= MAX_MEMBERS) return new SamplingProblem(TOO_BIG);
    const member = trimOws(raw[i] as string);
    if (member === '') continue;
    const eq = member.indexOf('=');
    const key = member.slice(0, eq);
    const value = member.slice(eq + 1);
    const at = key.indexOf('@');
    if (key.length > MAX_KEY_LENGTH || (at !== -1 && (at > MAX_TENANT_LENGTH || key.length - at - 1 > MAX_SYSTEM_LENGTH))) {
      problems.push(TOO_BIG);
    } else if (key === 'ot') {
      const ot = parseOTel(value);
      if (ot instanceof SamplingProblem) problems.push(ot.message);
      else state.ot = ot;
    } else {
      state.members.push([key, value]);
    }
  }
  return problems.length > 0 ? new SamplingProblem(problems.join('; ')) : state;
}

/** Raises the threshold to `threshold`; false (nothing changed) when that would lower it, which would raise the probability. */
export function updateThreshold(ot: OTelTraceState, threshold: bigint): boolean {
  if (ot.tValue !== '' && ot.threshold > threshold) return false;
  ot.threshold = threshold;
  ot.tValue = tValue(threshold);
  return true;
}

/** The tracestate written back: `ot` first (rv, th, the rest), then the other members. */
export function serializeTraceState(state: W3CTraceState): string {
  const ot: string[] = [];
  if (state.ot.rValue !== '') ot.push(`rv:${state.ot.rValue}`);
  if (state.ot.tValue !== '') ot.push(`th:${state.ot.tValue}`);
  for (const [key, value] of state.ot.extra) ot.push(`${key}:${value}`);
  const members = ot.length > 0 ? [`ot=${ot.join(';')}`] : [];
  for (const [key, value] of state.members) members.push(`${key}=${value}`);
  return members.join(',');
}
