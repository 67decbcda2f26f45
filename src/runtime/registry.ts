// Maps each component type to its factory, per kind, so that "debug" the exporter and a future
// "debug" of another kind never collide.
import type { ExporterFactory, ExtensionFactory, Factory, Kind, ProcessorFactory, ReceiverFactory } from './component.js';

interface ByKind {
  receiver: ReceiverFactory;
  processor: ProcessorFactory;
  exporter: ExporterFactory;
  extension: ExtensionFactory;
}

export class Registry {
  private readonly factories: { [K in Kind]: Map<string, ByKind[K]> } = {
    receiver: new Map(),
    processor: new Map(),
    exporter: new Map(),
    extension: new Map(),
  };

  constructor(factories: Iterable<Factory> = []) {
    for (const factory of factories) this.register(factory);
  }

  register(factory: Factory): this {
    const map = this.factories[factory.kind] as Map<string, Factory>;
    if (map.has(factory.type)) throw new Error(`${factory.kind} type "${factory.type}" is registered twice`);
    map.set(factory.type, factory);
    return this;
  }

  get<K extends Kind>(kind: K, type: string): ByKind[K] | undefined {
    return this.factories[kind].get(type);
  }

  types(kind: Kind): string[] {
    return [...this.factories[kind].keys()].sort();
  }

  list<K extends Kind>(kind: K): ByKind[K][] {
    return this.types(kind).map((type) => this.factories[kind].get(type) as ByKind[K]);
  }
}
