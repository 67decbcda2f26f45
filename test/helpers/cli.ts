// Runs the built CLI (dist/cli.js) as a child process, as users run it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEADLINE_MS } from './wait.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

/** A running `otelgate run`, with its JSON log lines parsed as they arrive. */
export class RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: LogLine[] = [];
  private readonly exited: Promise<number | null>;
  private listeners: (() => void)[] = [];

  /**
   * `detached`: in a process group of its own, as a terminal starts a command (for signals to the group).
   * `command`: what starts otelgate run, when not `node dist/cli.js run` (say, `npm start --`); `args` follow it.
   */
  constructor(args: string[], env: Record<string, string> = {}, detached = false, command: readonly string[] = [process.execPath, CLI, 'run']) {
    const [file = process.execPath, ...leading] = command;
    this.child = spawn(file, [...leading, ...args], { cwd: ROOT, env: { ...process.env, ...env }, detached });
    let buffered = '';
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          this.lines.push(JSON.parse(text) as LogLine);
        } catch {
          this.lines.push({ level: 'raw', msg: text });
        }
        for (const wake of this.listeners) wake();
      }
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  /** Resolves with the first log line whose msg includes `text`; rejects after `timeoutMs`. */
  waitFor(text: string, timeoutMs = DEADLINE_MS): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const look = (): boolean => {
        const line = this.lines.find((l) => l.msg.includes(text));
        if (line !== undefined) {
          clearTimeout(timer);
          this.listeners = this.listeners.filter((l) => l !== onLine);
          resolve(line);
        }
        return line !== undefined;
      };
      const onLine = (): void => void look();
      const timer = setTimeout(() => reject(new Error(`no log line with "${text}" in ${timeoutMs} ms; saw:\n${this.lines.map((l) => l.msg).join('\n')}`)), timeoutMs);
      if (!look()) this.listeners.push(onLine);
    });
  }

  exit(timeoutMs = DEADLINE_MS): Promise<number | null> {
    return Promise.race([
      this.exited,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`otelgate did not exit within ${timeoutMs} ms`)), timeoutMs)),
    ]);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
