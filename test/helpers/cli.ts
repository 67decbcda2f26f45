// Runs the built CLI (dist/cli.js) as a child process, as users run it.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEADLINE_MS, waitUntil } from './wait.js';

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

export interface RunningCliOptions {
  env?: Record<string, string>;
  /** In a process group of its own, as a terminal starts a command (for signals to the group). */
  detached?: boolean;
  /** What starts otelgate run, when not `node dist/cli.js run` (say, `npm start --`); the args follow it. */
  command?: readonly string[];
  /** The working directory (default: the repository), where a config's relative paths (./data) lead. */
  cwd?: string;
}

/** A running `otelgate run`: its stdout, and its JSON log lines parsed as they arrive. */
export class RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: LogLine[] = [];
  stdout = '';
  private readonly exited: Promise<number | null>;
  private listeners: (() => void)[] = [];

  constructor(args: string[], options: RunningCliOptions = {}) {
    const [file = process.execPath, ...leading] = options.command ?? [process.execPath, CLI, 'run'];
    this.child = spawn(file, [...leading, ...args], { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, detached: options.detached ?? false });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
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

  /** The API key printed once on stdout at first start; stdout and stderr are separate pipes, so it may come after later log lines. */
  async printedKey(timeoutMs = DEADLINE_MS): Promise<string> {
    const printed = /^ {4}(otg_[a-z0-9]{10}_[A-Za-z0-9]{32})$/m;
    if (!(await waitUntil(() => printed.test(this.stdout), timeoutMs))) throw new Error(`no key printed in ${timeoutMs} ms; stdout:\n${this.stdout}`);
    return printed.exec(this.stdout)?.[1] as string;
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

  /** SIGTERM, and its exit code once it has exited. */
  stop(timeoutMs = DEADLINE_MS): Promise<number | null> {
    this.child.kill('SIGTERM');
    return this.exit(timeoutMs);
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }
}
