// A SIGTERM or SIGINT to the process the user started (npm start, npx otelgate run) must reach
// otelgate and end in its clean shutdown, however npm and its shell pass signals on: a container
// whose command is `npm start` is stopped exactly so.
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunningCli } from '../helpers/cli.js';

/** The shipped default pipeline, moved by --set to free loopback ports and a temporary data folder. */
function overrides(dir: string): string[] {
  return [
    ['extensions.apikeyauth.keys_file', `${dir}/keys.yaml`],
    ['extensions.health_check.endpoint', '127.0.0.1:0'],
    ['receivers.ingest.endpoint', '127.0.0.1:0'],
    ['exporters.store.path', `${dir}/otelgate.db`],
    ['service.telemetry.metrics.readers', '[{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]'],
  ].flatMap(([key, value]) => ['--set', `${key}=${value}`]);
}

/** Resolves with whether a TCP connection to the port is accepted. */
function accepts(endpoint: string): Promise<boolean> {
  const [host, port] = endpoint.split(':') as [string, string];
  return new Promise((resolve) => {
    const socket = connect(Number(port), host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const NPM_START = ['npm', 'start', '--'];
const NPX = ['npx', 'otelgate', 'run'];

/**
 * To whom the signal goes: the process the user started, or its whole process group as a
 * terminal's Ctrl-C sends it. Under npx, SIGINT to npm alone is the one case otelgate cannot
 * see: npm hands it to its shell, which holds it until its child exits (README, "Command line").
 */
const RECEIVED = 'Received signal from OS';
/** npx's shell dies of the SIGTERM npm passes on: otelgate sees its npm go, not the signal. */
const NPM_GONE = 'The npm process that started otelgate has exited; shutting down as on SIGTERM';

const CASES = [
  { name: 'npm start', command: NPM_START, signal: 'SIGTERM', target: 'process', first: RECEIVED },
  { name: 'npm start', command: NPM_START, signal: 'SIGINT', target: 'process', first: RECEIVED },
  { name: 'npm start', command: NPM_START, signal: 'SIGINT', target: 'group', first: RECEIVED },
  { name: 'npx otelgate run', command: NPX, signal: 'SIGTERM', target: 'process', first: NPM_GONE },
  { name: 'npx otelgate run', command: NPX, signal: 'SIGINT', target: 'group', first: RECEIVED },
] as const;

describe('otelgate started through npm', () => {
  it.each(CASES)('$name: stops cleanly on $signal sent to the $target', async ({ command, signal, target, first }) => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-npm-'));
    const run = new RunningCli(overrides(dir), { detached: target === 'group', command });
    try {
      const ingest = String((await run.waitFor('Starting HTTP server', 60_000))['endpoint']);
      const health = String((await run.waitFor('Starting health_check extension'))['endpoint']);
      const metrics = String((await run.waitFor('Serving metrics'))['endpoint']);
      await run.waitFor('Everything is ready');
      expect(await accepts(ingest)).toBe(true);

      // otelgate writes to the same stderr pipe as npm: the pipe closes once both have exited.
      const closed = new Promise((resolve) => run.child.stderr.once('close', resolve));
      const sent = Date.now();
      if (target === 'group') process.kill(-(run.child.pid as number), signal);
      else run.child.kill(signal);
      const code = await run.exit();
      await closed;
      // A container runtime's grace period before SIGKILL is often 10 s; the issue asks for 5.
      expect(Date.now() - sent).toBeLessThan(5000);
      // npm start passes a signal sent to it alone on, waits for otelgate and exits as it did; npx's
      // npm exits as soon as its shell dies, and under Ctrl-C npm has a signal of its own to exit by.
      if (command === NPM_START && target === 'process') expect(code).toBe(0);
      expect(run.lines.filter((l) => l.level !== 'raw').slice(-3).map((l) => l.msg)).toEqual([first, 'Starting shutdown...', 'Shutdown complete.']);
      for (const endpoint of [ingest, health, metrics]) expect(await accepts(endpoint)).toBe(false);
    } finally {
      run.kill();
    }
  });
});
