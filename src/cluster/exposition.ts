// One Prometheus exposition out of the workers' own: each family once, with every worker's
// samples under it, each labelled with its worker. Summing across workers is left to PromQL
// (sum by (...)), as for any set of processes; merging here would have to know each metric's
// meaning (a counter adds up, a process's memory gauge does not).

/** The label every sample gets: the worker's number (1, 2, ...). */
const WORKER_LABEL = 'worker';

interface Family {
  help?: string;
  type?: string;
  samples: string[];
}

/** A sample line `name{labels} value` or `name value` with the worker's label added first. */
function labelled(line: string, worker: string): string {
  const label = `${WORKER_LABEL}="${worker}"`;
  const brace = line.indexOf('{');
  const space = line.indexOf(' ');
  if (brace !== -1 && (space === -1 || brace < space)) {
    const rest = line.slice(brace + 1);
    return `${line.slice(0, brace + 1)}${label}${rest.startsWith('}') ? '' : ','}${rest}`;
  }
  return space === -1 ? line : `${line.slice(0, space)}{${label}}${line.slice(space)}`;
}

export function mergeExpositions(parts: readonly { worker: string; text: string }[]): string {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let found = families.get(name);
    if (found === undefined) {
      found = { samples: [] };
      families.set(name, found);
    }
    return found;
  };
  for (const { worker, text } of parts) {
    let current = family('');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const header = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (header !== null) {
        current = family(header[2] as string);
        if (header[1] === 'HELP') current.help ??= line;
        else current.type ??= line;
      } else if (!line.startsWith('#')) {
        current.samples.push(labelled(line, worker));
      }
    }
  }
  const lines: string[] = [];
  for (const { help, type, samples } of families.values()) {
    if (help !== undefined) lines.push(help);
    if (type !== undefined) lines.push(type);
    lines.push(...samples);
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
