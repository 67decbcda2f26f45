// When npm starts otelgate (npm start, npx otelgate), a shell often stands between them, and a
// signal sent to npm alone (as a container runtime or `kill` sends it) may never reach otelgate:
// npm passes SIGTERM and SIGINT to its shell; the shell dies of SIGTERM without passing it on,
// and waits out SIGINT for a child that never got it; npm exits either way. otelgate would run
// on with nobody left to stop it. So under npm, otelgate watches the process that started it
// (and, when that is npm's shell, npm itself) and shuts down as on SIGTERM when either is gone.
// Outside npm it does not: `nohup otelgate run &` must outlive its shell.
import { readFileSync } from 'node:fs';

/**
 * A second SIGTERM or SIGINT stops otelgate at once, without waiting for shutdown; one that comes
 * this soon after the first is the same stop arriving twice (a terminal's Ctrl-C reaches
 * otelgate both from the terminal and from npm, which passes it on), not a person insisting.
 */
export const SAME_STOP_MS = 1000;

/** How often the processes are looked at: a shutdown starts at most this long after npm went. */
const CHECK_MS = 500;

const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'zsh']);

/** Fields of /proc/PID/stat after the command name, or undefined where there is no such process (or no /proc). */
function stat(proc: string, pid: number): string[] | undefined {
  try {
    const text = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function commandName(proc: string, pid: number): string | undefined {
  try {
    return readFileSync(`${proc}/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Calls `onGone` once if this process was started by npm and npm (or its shell) has exited since.
 * `proc`: where /proc is; without one (macOS), only the parent's exit is seen, by the parent id.
 */
export function watchNpmParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env, proc = '/proc'): void {
  if (env['npm_lifecycle_event'] === undefined) return;
  const parent = process.ppid;
  const watched: number[] = [];
  if (stat(proc, process.pid) !== undefined) {
    watched.push(parent);
    const grandparent = Number(stat(proc, parent)?.[1]);
    if (SHELLS.has(commandName(proc, parent) ?? '') && grandparent > 1) watched.push(grandparent);
  }
  // Gone: exited, or exited and not yet reaped (a zombie).
  const gone = (pid: number): boolean => {
    const fields = stat(proc, pid);
    return fields === undefined || fields[0] === 'Z';
  };
  const timer = setInterval(() => {
    // An orphan is adopted by init or a subreaper, so its parent id changes; /proc tells the rest.
    if (process.ppid === parent && !watched.some(gone)) return;
    clearInterval(timer);
    onGone();
  }, CHECK_MS);
  timer.unref();
}
