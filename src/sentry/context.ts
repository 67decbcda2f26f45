// What the mappers of one body share: the arrival time, the record budget, the rows made so far,
// and the resources and scopes, made once per distinct value and shared by every row that has it.
import { newAttributes } from '../model/anyvalue.js';
import type { LogRow } from '../model/logs.js';
import type { Resource, Scope } from '../model/resource.js';
import type { SpanRow } from '../model/traces.js';
import { DecodeAbort, type RecordBudget } from '../otlp/result.js';
import { isObject, nonEmpty } from './json.js';

/** OTel's service.name for a service that does not say its name (the resource semantic conventions). */
const UNKNOWN_SERVICE = 'unknown_service';

export interface SentryDecoded {
  logs: LogRow[];
  spans: SpanRow[];
  /** Items or records that could not be read and were skipped (a mangled envelope is skips, never an exception). */
  skipped: number;
  /** Why part of the body could not be read, when it could not. */
  unreadable?: string;
  /** Item types accepted but not stored (session, sessions, client_report, attachment, replay_event, replay_recording, profile, check_in, statsd, ...), counted by type. */
  ignored: Record<string, number>;
  /** The envelope header's event_id, else the first event's; answered to the SDK as {"id": ...}. */
  eventId: string | undefined;
}

/** An SDK's name and version, as the envelope header, an event's `sdk` or the sentry.sdk.* attributes give them. */
export interface Sdk {
  name: string;
  version: string;
}

export function sdkOf(value: unknown): Sdk | undefined {
  if (!isObject(value)) return undefined;
  const name = nonEmpty(value['name']);
  return name === undefined ? undefined : { name, version: nonEmpty(value['version']) ?? '' };
}

/** What a resource is made of; each is left out when undefined. */
export interface Origin {
  /** Candidates for service.name, the first one defined wins; UNKNOWN_SERVICE when none is. */
  service: readonly (string | undefined)[];
  host?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
}

export class DecodeContext {
  readonly out: SentryDecoded = { logs: [], spans: [], skipped: 0, ignored: Object.create(null) as Record<string, number>, eventId: undefined };
  private readonly resources = new Map<string, Resource>();
  private readonly scopes = new Map<string, Scope>();

  constructor(
    readonly arrivalUnixNano: bigint,
    readonly budget: RecordBudget,
    /** The envelope header's SDK: the scope of rows whose payload does not name one. */
    readonly headerSdk: Sdk | undefined,
  ) {}

  /**
   * Counts one record against the budget and maps it: one whose mapping throws (a value nested
   * deeper than rows may hold) is skipped on its own; the budget's errors stop the whole body.
   */
  record(map: () => void): void {
    this.budget.count();
    try {
      map();
    } catch (error) {
      if (error instanceof DecodeAbort) throw error;
      this.out.skipped++;
    }
  }

  /** Counts a part of the body that could not be read; the first reason is kept. */
  lost(why: string): void {
    this.out.skipped++;
    this.out.unreadable ??= why;
  }

  resource(origin: Origin): Resource {
    const service = origin.service.find((name) => name !== undefined && name !== '') ?? UNKNOWN_SERVICE;
    const key = JSON.stringify([service, origin.host, origin.release, origin.environment]);
    let resource = this.resources.get(key);
    if (resource === undefined) {
      const attributes = newAttributes();
      attributes['service.name'] = service;
      if (origin.release !== undefined) attributes['service.version'] = origin.release;
      if (origin.environment !== undefined) attributes['deployment.environment.name'] = origin.environment;
      if (origin.host !== undefined) attributes['host.name'] = origin.host;
      this.resources.set(key, (resource = { attributes, droppedAttributesCount: 0, schemaUrl: '' }));
    }
    return resource;
  }

  /** The instrumentation scope: the SDK, else the envelope header's, else none (''). */
  scope(sdk: Sdk | undefined): Scope {
    const { name, version } = sdk ?? this.headerSdk ?? { name: '', version: '' };
    const key = `${name}\n${version}`;
    let scope = this.scopes.get(key);
    if (scope === undefined) this.scopes.set(key, (scope = { name, version, attributes: newAttributes(), droppedAttributesCount: 0, schemaUrl: '' }));
    return scope;
  }
}
