// The component model: every receiver, processor, exporter and extension comes from a factory
// that declares its type, the signals it serves, its settings schema (with defaults) and create().
import type { Static, TSchema } from 'typebox';
import type { Logger } from 'pino';
import type { Batch } from '../model/batch.js';
import type { Signal } from '../model/signal.js';
import type { SelfMetrics } from '../telemetry/metrics.js';

export type Kind = 'receiver' | 'processor' | 'exporter' | 'extension';
export const KINDS: readonly Kind[] = ['receiver', 'processor', 'exporter', 'extension'];

/** The Collector's stability levels, shown by `otelgate components`. */
export type Stability = 'development' | 'alpha' | 'beta' | 'stable' | 'deprecated';

export interface Component {
  start(): Promise<void>;
  shutdown(): Promise<void>;
  /**
   * Extensions only, as the Collector's PipelineWatcher: called once every component has started,
   * and `notReady` as soon as shutdown begins. An extension starts first and stops last, so
   * without these it could not tell when the service can take data (health_check answers by it).
   * Neither may throw.
   */
  ready?(): void;
  notReady?(): void;
}

/**
 * Who sent a batch, as the Collector's client.Info: what a queue keeps with the batch and an
 * exporter may route by (the batch's project travels on the batch itself).
 */
export interface ClientInfo {
  /** The id of the API key the request came with (never the key); '' when it came with none. */
  readonly keyId: string;
  /**
   * Request headers the receiver was told to keep (`include_metadata`), by lower-case name. Never
   * the headers that carry a key.
   */
  readonly metadata: Readonly<Record<string, readonly string[]>>;
}

/** What comes with a batch from the request that brought it. */
export interface ConsumeContext {
  /**
   * Aborted once nobody waits for the answer any more (the client went away): a consumer that is
   * only waiting (for room in a full queue, say) gives up then. Work already done is not undone.
   */
  readonly signal: AbortSignal;
  readonly client: ClientInfo;
}

const NEVER_ABORTED = new AbortController().signal;
const NO_CLIENT: ClientInfo = Object.freeze({ keyId: '', metadata: Object.freeze({}) });

/** The context of a batch made inside otelgate or pushed in-process (tests, benchmarks), as the Collector's context.Background(). */
export function consumeContext(fields: Partial<ConsumeContext> = {}): ConsumeContext {
  return { signal: fields.signal ?? NEVER_ABORTED, client: fields.client ?? NO_CLIENT };
}

export interface Consumer {
  /** Resolves once the batch is accepted; rejects with an error from src/errors.ts otherwise. */
  consume(batch: Batch, ctx: ConsumeContext): Promise<void>;
  /**
   * True when it sends OTLP protobuf made from the rows it gets (a remote exporter's queue holds
   * that): a receiver then keeps each protobuf body as the source of the rows decoded from it, so
   * that those bytes go on as they came (src/otlp/source.ts). The others do not pay for it.
   */
  readonly sendsProtobuf?: boolean;
}

export interface Processor extends Component, Consumer {}
export interface Exporter extends Component, Consumer {
  /**
   * True for an exporter that counts otelcol_exporter_sent/send_failed itself, after its queue (the
   * backend has it); for the others the service counts what consume() accepts.
   */
  readonly countsItself?: boolean;
}

/** What a component may ask of the running service. */
export interface Host {
  /** A started extension by its id (`apikeyauth`, `apikeyauth/ops`), for components that name one in their settings. */
  extension(id: string): Component | undefined;
  /** Every exporter of the config by id, as its factory made it: for a receiver that serves reads from a store. */
  exporters(): ReadonlyMap<string, Component>;
}

export interface ComponentContext {
  /** `type` or `type/name`, as written in the config. */
  id: string;
  kind: Kind;
  logger: Logger;
  host: Host;
  /** otelgate's own metrics: a meter, and whether metrics of a level are wanted. */
  telemetry: SelfMetrics;
  /** The signals of the pipelines the component is in ([] for extensions). */
  signals: readonly Signal[];
  /** With service.workers above 1, the worker slot (1…N) this process serves; a replacement worker has its slot's. */
  worker: number | undefined;
  /**
   * Aborted as soon as the service begins to shut down, before any component stops: what waits
   * on behalf of a request (for room in a queue, for a backend) gives up then, so that receivers,
   * which wait for their requests, can stop within the shutdown timeout.
   */
  stopping: AbortSignal;
}

/** Settings checks that a JSON Schema cannot say; each message is prefixed with its path below the component. */
export interface SettingsProblem {
  path: (string | number)[];
  message: string;
}

interface FactoryBase<S extends TSchema> {
  type: string;
  description: string;
  schema: S;
  /**
   * Why one process must run this component alone (it owns a file, say), when it must: such a
   * component refuses service.workers above 1.
   */
  singleProcess?: string;
  validate?(config: Static<S>): SettingsProblem[];
}

export interface ReceiverFactory<S extends TSchema = TSchema> extends FactoryBase<S> {
  kind: 'receiver';
  stability: Partial<Record<Signal, Stability>>;
  create(config: Static<S>, ctx: ComponentContext, next: Partial<Record<Signal, Consumer>>): Component;
}

export interface ProcessorFactory<S extends TSchema = TSchema> extends FactoryBase<S> {
  kind: 'processor';
  stability: Partial<Record<Signal, Stability>>;
  create(config: Static<S>, ctx: ComponentContext, next: Consumer): Processor;
}

export interface ExporterFactory<S extends TSchema = TSchema> extends FactoryBase<S> {
  kind: 'exporter';
  stability: Partial<Record<Signal, Stability>>;
  create(config: Static<S>, ctx: ComponentContext): Exporter;
}

export interface ExtensionFactory<S extends TSchema = TSchema> extends FactoryBase<S> {
  kind: 'extension';
  stability: Stability;
  create(config: Static<S>, ctx: ComponentContext): Component;
}

export type Factory = ReceiverFactory | ProcessorFactory | ExporterFactory | ExtensionFactory;

/**
 * A factory bound to the settings that passed its own schema, at validation: the service builds
 * from these, so no settings can reach a factory but its own, validated and with defaults filled in.
 */
export type BoundFactory =
  | { kind: 'receiver'; create(ctx: ComponentContext, next: Partial<Record<Signal, Consumer>>): Component }
  | { kind: 'processor'; create(ctx: ComponentContext, next: Consumer): Processor }
  | { kind: 'exporter'; create(ctx: ComponentContext): Exporter }
  | { kind: 'extension'; create(ctx: ComponentContext): Component };

export function bindFactory<S extends TSchema>(factory: Factory & { schema: S }, config: Static<S>): BoundFactory {
  switch (factory.kind) {
    case 'receiver':
      return { kind: 'receiver', create: (ctx, next) => factory.create(config, ctx, next) };
    case 'processor':
      return { kind: 'processor', create: (ctx, next) => factory.create(config, ctx, next) };
    case 'exporter':
      return { kind: 'exporter', create: (ctx) => factory.create(config, ctx) };
    case 'extension':
      return { kind: 'extension', create: (ctx) => factory.create(config, ctx) };
  }
}

export function signalsOf(factory: Factory): Signal[] {
  return factory.kind === 'extension' ? [] : (Object.keys(factory.stability) as Signal[]);
}

/** A component id split as the Collector splits it: `type` or `type/name`. */
export interface ComponentId {
  id: string;
  type: string;
  name: string;
}

const TYPE = /^[a-zA-Z][0-9a-zA-Z_]{0,62}$/;
const NAME = /^[^\s/]+$/;

export function parseComponentId(id: string): ComponentId | string {
  const slash = id.indexOf('/');
  const type = slash === -1 ? id : id.slice(0, slash);
  const name = slash === -1 ? '' : id.slice(slash + 1);
  if (!TYPE.test(type)) return `"${id}" is not a valid component id: the type must start with a letter and hold only letters, digits and _`;
  if (slash !== -1 && !NAME.test(name)) return `"${id}" is not a valid component id: the name after "/" must be non-empty, without spaces or "/"`;
  return { id, type, name };
}
