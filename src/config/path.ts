// Paths inside a config, written the way users read them: exporters.loki/eu.endpoint, service.pipelines.logs.exporters[1].
import { isMap, isSeq, isScalar, type Node } from 'yaml';
import type { ConfigSource } from './load.js';

export type ConfigPath = readonly (string | number)[];

export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** JSON pointer (as ajv reports) to path segments; numeric segments of arrays stay numbers. */
export function pointerToPath(pointer: string, root: unknown): (string | number)[] {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[segment] : undefined;
  }
  return path;
}

interface Position {
  file: string;
  line?: number;
  col?: number;
  depth: number;
}

function find(source: ConfigSource, path: ConfigPath): Position | undefined {
  let node: Node | null | undefined = source.doc.contents as Node | null;
  let found: Position | undefined;
  const at = (offset: number, depth: number): Position =>
    source.positions ? { file: source.file, ...source.lineCounter.linePos(offset), depth } : { file: source.file, depth };
  for (let depth = 0; depth < path.length; depth++) {
    const segment = path[depth];
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (pair === undefined) break;
      const keyNode = pair.key as Node;
      if (keyNode.range) found = at(keyNode.range[0], depth + 1);
      node = pair.value as Node | null;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (item === undefined) break;
      if (item.range) found = at(item.range[0], depth + 1);
      node = item;
    } else {
      break;
    }
  }
  return found;
}

/** Where a path was written: the last file (it wins the merge) that holds the deepest part of it. */
export function locate(sources: readonly ConfigSource[], path: ConfigPath): { file?: string; line?: number; col?: number } {
  let best: Position | undefined;
  for (const source of sources) {
    const position = find(source, path);
    if (position === undefined) continue;
    // Later sources win the merge, so they win a tie, but a --set flag only for what lies at or
    // below its own path: above it, the flag merged a key into a map that a file wrote.
    const ownsTie = source.setPath === undefined || source.setPath.every((segment, i) => String(path[i]) === segment);
    if (best === undefined || position.depth > best.depth || (position.depth === best.depth && ownsTie)) best = position;
  }
  if (best !== undefined) return best.line === undefined ? { file: best.file } : { file: best.file, line: best.line, col: best.col };
  const last = sources[sources.length - 1];
  return last === undefined ? {} : { file: last.file };
}
