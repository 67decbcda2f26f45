// Builds the component graph from a validated config and runs its lifecycle:
// start extensions → exporters → processors → receivers; shut down in reverse, letting the
// batches under way finish first, all within service.shutdown_timeout.
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../config/validate.js';
import { ComponentStartError, errorMessage } from '../errors.js';
import type { Signal } from '../model/signal.js';
import type { Component, ComponentContext, Consumer, Exporter, Host, Kind } from './component.js';
import { SelfMetrics } from '../telemetry/metrics.js';
import { countedExporter } from './counted.js';
import { fanout } from './fanout.js';
import { Inflight } from './inflight.js';

interface Running {
  id: string;
  kind: Kind;
  pipeline?: string;
  component: Component;
}

export interface ShutdownResult {
  /** False when the timeout ran out before every batch was answered and every component stopped. */
  clean: boolean;
  /** Batches still under way when shutdown gave up. */
  abandoned: number;
  /**
   * Settles once every component's shutdown has returned, also after the timeout: what must start
   * again in this process (a reload) waits for it, as the old components may still hold a port or a file.
   */
  stopped: Promise<void>;
}

export class Service {
  private readonly inflight = new Inflight();
  private readonly stopping = new AbortController();
  private readonly extensions = new Map<string, Component>();
  private readonly exporters = new Map<string, Component>();
  private readonly receiverInputs = new Map<string, Partial<Record<Signal, Consumer>>>();
  /** In start order; each group is shut down in reverse order of this list. */
  private readonly groups: Record<'extensions' | 'exporters' | 'processors' | 'receivers', Running[]> = {
    extensions: [],
    exporters: [],
    processors: [],
    receivers: [],
  };
  private started: Running[] = [];
  private shutdownPromise: Promise<ShutdownResult> | undefined;

  /** `worker`: the worker slot this process serves, with service.workers above 1. */
  constructor(
    private readonly config: ResolvedConfig,
    private readonly logger: Logger,
    private readonly telemetry: SelfMetrics = new SelfMetrics({ level: 'none', readers: [] }, logger),
    private readonly worker?: number,
  ) {
    this.build();
  }

  private context(id: string, kind: Kind, pipeline?: string): ComponentContext {
    const host: Host = { extension: (name) => this.extensions.get(name), exporters: () => this.exporters };
    const bindings = pipeline === undefined ? { kind, name: id } : { kind, name: id, pipeline };
    const lists = { receiver: 'receivers', processor: 'processors', exporter: 'exporters', extension: undefined } as const;
    const list = lists[kind];
    const signals = list === undefined ? [] : [...new Set(this.config.service.pipelines.filter((p) => p.id === pipeline || (pipeline === undefined && p[list].includes(id))).map((p) => p.signal))];
    return { id, kind, logger: this.logger.child(bindings), host, telemetry: this.telemetry, signals, worker: this.worker, stopping: this.stopping.signal };
  }

  private create<T>(id: string, make: () => T): T {
    try {
      return make();
    } catch (error) {
      throw new ComponentStartError(id, errorMessage(error));
    }
  }

  private build(): void {
    const { components, service } = this.config;
    for (const id of service.extensions) {
      const entry = components.extension.get(id);
      if (entry === undefined || entry.bound.kind !== 'extension') continue;
      const { bound } = entry;
      const component = this.create(id, () => bound.create(this.context(id, 'extension')));
      this.extensions.set(id, component);
      this.groups.extensions.push({ id, kind: 'extension', component });
    }

    const exporters = new Map<string, Exporter>();
    for (const pipeline of service.pipelines) {
      for (const id of pipeline.exporters) {
        if (exporters.has(id)) continue;
        const entry = components.exporter.get(id);
        if (entry === undefined || entry.bound.kind !== 'exporter') continue;
        const { bound } = entry;
        const exporter = this.create(id, () => bound.create(this.context(id, 'exporter')));
        exporters.set(id, exporter.countsItself === true ? exporter : countedExporter(exporter, id, this.telemetry));
        this.exporters.set(id, exporter);
        this.groups.exporters.push({ id, kind: 'exporter', component: exporter });
      }
    }

    const heads = new Map<string, Partial<Record<Signal, Consumer[]>>>();
    // Receiver and signal (`id signal`) whose pipelines have an exporter that sends OTLP protobuf.
    const sendsProtobuf = new Set<string>();
    for (const pipeline of service.pipelines) {
      let next: Consumer = fanout(pipeline.exporters.map((id) => exporters.get(id) as Exporter));
      const sends = pipeline.exporters.some((id) => exporters.get(id)?.sendsProtobuf === true);
      const chain: Running[] = [];
      for (const id of [...pipeline.processors].reverse()) {
        const entry = components.processor.get(id);
        if (entry === undefined || entry.bound.kind !== 'processor') continue;
        const { bound } = entry;
        const downstream = next;
        const processor = this.create(id, () => bound.create(this.context(id, 'processor', pipeline.id), downstream));
        chain.push({ id, kind: 'processor', pipeline: pipeline.id, component: processor });
        next = processor;
      }
      this.groups.processors.push(...chain);
      for (const id of pipeline.receivers) {
        if (sends) sendsProtobuf.add(`${id} ${pipeline.signal}`);
        const bySignal = heads.get(id) ?? {};
        (bySignal[pipeline.signal] ??= []).push(next);
        heads.set(id, bySignal);
      }
    }

    for (const [id, bySignal] of heads) {
      const entry = components.receiver.get(id);
      if (entry === undefined || entry.bound.kind !== 'receiver') continue;
      const inputs: Partial<Record<Signal, Consumer>> = {};
      for (const [signal, consumers] of Object.entries(bySignal) as [Signal, Consumer[]][]) {
        inputs[signal] = this.inflight.wrap(fanout(consumers), sendsProtobuf.has(`${id} ${signal}`));
      }
      this.receiverInputs.set(id, inputs);
      const { bound } = entry;
      const receiver = this.create(id, () => bound.create(this.context(id, 'receiver'), inputs));
      this.groups.receivers.push({ id, kind: 'receiver', component: receiver });
    }
  }

  /**
   * What receiver `id` hands its `signal` batches to: the way to push batches through the
   * pipelines in-process, without a receiver of its own (tests, benchmarks, embedding).
   */
  consumer(receiverId: string, signal: Signal): Consumer | undefined {
    return this.receiverInputs.get(receiverId)?.[signal];
  }

  async start(): Promise<void> {
    const order = [...this.groups.extensions, ...this.groups.exporters, ...this.groups.processors, ...this.groups.receivers];
    for (const running of order) {
      this.logger.debug({ kind: running.kind, name: running.id }, 'Starting component');
      try {
        await running.component.start();
      } catch (error) {
        await this.stopAll(this.started.reverse());
        this.started = [];
        throw new ComponentStartError(running.id, errorMessage(error), { cause: error });
      }
      this.started.push(running);
    }
    for (const running of this.groups.extensions) running.component.ready?.();
  }

  private async stopAll(components: Running[]): Promise<void> {
    for (const running of components) {
      try {
        await running.component.shutdown();
      } catch (error) {
        this.logger.error({ kind: running.kind, name: running.id, err: error }, 'Component failed to shut down');
      }
    }
  }

  /** Idempotent: every call gets the same outcome. */
  shutdown(timeoutMs = this.config.service.shutdownTimeoutMs): Promise<ShutdownResult> {
    this.shutdownPromise ??= this.runShutdown(timeoutMs);
    return this.shutdownPromise;
  }

  private async runShutdown(timeoutMs: number): Promise<ShutdownResult> {
    const isStarted = (r: Running): boolean => this.started.includes(r);
    const { receivers, processors, exporters, extensions } = this.groups;
    this.stopping.abort();
    // Before anything stops: a health check must fail while the receivers are still draining.
    for (const running of extensions.filter(isStarted)) running.component.notReady?.();
    const sequence = async (): Promise<void> => {
      await this.stopAll(receivers.filter(isStarted).reverse());
      await this.inflight.close();
      await this.stopAll(processors.filter(isStarted).reverse());
      await this.stopAll(exporters.filter(isStarted).reverse());
      await this.stopAll(extensions.filter(isStarted).reverse());
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const stopped = sequence();
    const outcome = await Promise.race([stopped.then(() => 'done' as const), timedOut]);
    clearTimeout(timer);
    return outcome === 'done' ? { clean: true, abandoned: 0, stopped } : { clean: false, abandoned: this.inflight.size, stopped };
  }
}
