// Every shell example of README.md runs here against the built otelgate (dist/cli.js), in README
// order, and must print what the README shows; so do the minimal config and its validate example.
//
// How the README writes what a command prints: in a ```sh block, the lines that begin `# → `
// under a command are its output, one line each (a comment to the shell, so a block can be pasted
// whole). The commands since the last `# →` lines must print exactly that, and exit 0; commands
// with no `# →` lines under them must print nothing. `...` in an output line stands for a value
// that differs on every run (a time): it matches any text without a double quote or a line break,
// so it can stand for a value but never hide a field. An output is compared up to one final line
// break (curl prints none after an answer).
//
// Each block runs in bash as a user would run it in a clone, with the key otelgate printed on its
// first start in KEY, and with three differences, all here: `localhost:4318` is the test's own
// port; `npx otelgate` runs the built dist/cli.js (the working directory is a temporary stand-in
// for the clone, holding its own ./data and a link to examples/); and curl gets --silent
// --show-error, which a pipe needs to print what a terminal prints (curl shows no progress meter
// on a terminal). Nothing a block writes to stderr is expected.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, RunningCli } from './helpers/cli.js';
import { waitUntil } from './helpers/wait.js';

/** How long this file waits for a running otelgate: its blocks run many processes one after another. */
const WAIT_MS = 60_000;

/** Shell blocks that cannot run inside a test, each exactly as the README writes it, with why. */
const EXEMPT = new Map([
  [
    'npm install && npm start',
    'installs from the registry, then runs until stopped on the fixed ports 4318, 8888 and 13133 and the clone’s ./data; test/cli/npm-signals.test.ts starts `npm start` and stops it',
  ],
  ['npm install && npm test', 'the whole suite, this file included: it is what CI runs (.ci/run)'],
  ['npm install && npm run bench', 'the benchmark takes about nine minutes on two cores'],
]);

/** Fence languages that would mean a shell example in another guise, which this file would not run. */
const OTHER_SHELLS = ['bash', 'shell', 'console', 'shell-session', 'zsh', 'terminal'];

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  lang: string;
  text: string;
  /** Its `## ` section. */
  section: string;
  /** The line of its opening fence, from 1. */
  line: number;
}

function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith('## ')) section = line.slice(3);
    const fence = /^```(\S*)$/.exec(line);
    if (fence === null) continue;
    const end = lines.indexOf('```', i + 1);
    if (end === -1) throw new Error(`README.md:${i + 1}: a code block that never closes`);
    blocks.push({ lang: fence[1] as string, text: lines.slice(i + 1, end).join('\n'), section, line: i + 1 });
    i = end;
  }
  return blocks;
}

const BLOCKS = fencedBlocks(README);
const SHELL = BLOCKS.filter((b) => b.lang === 'sh');
const RUN = SHELL.filter((b) => !EXEMPT.has(b.text));

/** Some commands and the output the README shows under them. */
interface Step {
  commands: string;
  expected: string;
}

const OUTPUT = /^# → ?(.*)$/;

function steps(block: Block): Step[] {
  const result: Step[] = [];
  let commands: string[] = [];
  let expected: string[] = [];
  const close = (): void => {
    if (commands.some((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))) result.push({ commands: commands.join('\n').trim(), expected: expected.join('\n') });
    commands = [];
    expected = [];
  };
  for (const line of block.text.split('\n')) {
    const output = OUTPUT.exec(line);
    if (output !== null) expected.push(output[1] as string);
    else {
      if (expected.length > 0) close();
      commands.push(line);
    }
  }
  close();
  return result;
}

/** Whether `actual` is what `expected` shows, `...` standing for any text without a double quote or line break. */
function shows(expected: string, actual: string): boolean {
  const pattern = expected
    .split('...')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^"\\n]*');
  return new RegExp(`^${pattern}$`).test(actual);
}

const shellQuote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** See the head of this file for why each. */
const PRELUDE = [
  'curl() { command curl --silent --show-error "$@"; }',
  `npx() { if [ "$1" = otelgate ]; then shift; node ${shellQuote(CLI)} "$@"; else echo "the README test runs npx otelgate only, not npx $1" >&2; return 127; fi; }`,
].join('\n');

const MARK = '@@readme-step-end@@';

interface BlockRun {
  stderr: string;
  steps: { commands: string; status: number; output: string }[];
}

/** Runs a block's steps in one bash, as one pasted into a terminal, and tells each step's output and status apart. */
async function runBlock(block: Block, shell: Shell): Promise<BlockRun> {
  const blockSteps = steps(block);
  const script = [PRELUDE, ...blockSteps.map((step) => `${step.commands.replaceAll('localhost:4318', `127.0.0.1:${shell.port}`)}\nprintf '\\n${MARK} %s\\n' "$?"`)].join('\n');
  const result = await run('bash', ['-c', script], shell.cwd, shell.env);
  const parts = result.stdout.split(new RegExp(`\\n${MARK} (\\d+)\\n`));
  return {
    stderr: result.stderr,
    steps: blockSteps.map((step, i) => {
      const output = (parts[2 * i] ?? '<no output: the block ended before this step>').replace(/\n$/, '');
      return { commands: step.commands, status: Number(parts[2 * i + 1] ?? -1), output: shows(step.expected, output) ? step.expected : output };
    }),
  };
}

/** What a block must give: no stderr, and each step exit 0 with the output the README shows. */
const asShown = (block: Block): BlockRun => ({ stderr: '', steps: steps(block).map((step) => ({ commands: step.commands, status: 0, output: step.expected })) });

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; generous deadline, for a busy machine. */
function run(file: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} ${args.join(' ')} did not end within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Where a block runs: the clone's stand-in, the gateway's port, bash's environment. */
interface Shell {
  cwd: string;
  port: string;
  env: Record<string, string>;
  gateway: RunningCli;
}

/**
 * The shipped default pipeline started in a fresh stand-in for the clone, as `npm start` starts it
 * there, moved only to free loopback ports: its data is the stand-in's ./data, where
 * `npx otelgate query` (the default pipeline too) reads it.
 */
async function startDefaultPipeline(): Promise<Shell> {
  const cwd = mkdtempSync(join(tmpdir(), 'otelgate-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'));
  writeFileSync(
    join(cwd, 'ports.yaml'),
    'extensions: {health_check: {endpoint: "127.0.0.1:0"}}\nreceivers: {ingest: {endpoint: "127.0.0.1:0"}}\n' +
      'service: {telemetry: {metrics: {readers: [{pull: {exporter: {prometheus: {host: 127.0.0.1, port: 0}}}}]}}}\n',
  );
  const gateway = new RunningCli(['--config', join(ROOT, 'pipelines', 'default.yaml'), '--config', 'ports.yaml'], { cwd });
  const endpoint = String((await gateway.waitFor('Starting HTTP server', WAIT_MS))['endpoint']);
  await gateway.waitFor('Everything is ready', WAIT_MS);
  const key = await gateway.printedKey(WAIT_MS);
  // HOME is the stand-in too, so that no ~/.curlrc of the machine changes what curl prints.
  const env = { PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`, HOME: cwd, KEY: key };
  return { cwd, port: endpoint.slice(endpoint.lastIndexOf(':') + 1), env, gateway };
}

describe('README.md', () => {
  it('has no shell example this file does not run, but the exempt setup commands, each there exactly once', () => {
    expect(BLOCKS.filter((b) => OTHER_SHELLS.includes(b.lang)).map((b) => `README.md:${b.line}: ${b.lang}`)).toEqual([]);
    expect(SHELL.filter((b) => EXEMPT.has(b.text)).map((b) => b.text)).toEqual([...EXEMPT.keys()]);
    expect(RUN.length).toBeGreaterThan(0);
  });

  describe('every shell example, in order, against the default pipeline', () => {
    let shell: Shell;
    beforeAll(async () => {
      shell = await startDefaultPipeline();
    }, 120_000);
    afterAll(async () => {
      expect(await shell.gateway.stop(WAIT_MS)).toBe(0);
    }, 120_000);

    for (const block of RUN) {
      it(`README.md:${block.line} (${block.section}) prints what it shows`, async () => {
        expect(await runBlock(block, shell)).toEqual(asShown(block));
      }, 180_000);
    }
  });

  it('examples/curl.sh sends the same requests: the same answers, and then "Reading data back" shows the same rows', async () => {
    const command = /`(OTELGATE_KEY=\$KEY bash examples\/curl\.sh)`/.exec(README)?.[1];
    expect(command).toBeDefined();
    const [sending, ...others] = RUN.filter((b) => b.section === 'Sending data');
    const reading = RUN.filter((b) => b.section === 'Reading data back');
    expect([sending?.text.includes('/api/v1/ingest'), others.some((b) => b.text.includes('curl')), reading.length]).toEqual([true, false, 1]);

    const shell = await startDefaultPipeline();
    try {
      const sent = await run('bash', ['-c', command as string], shell.cwd, { ...shell.env, OTELGATE_URL: `http://127.0.0.1:${shell.port}` });
      const answers = steps(sending as Block).map((step) => `${step.expected}\n`);
      expect(sent).toEqual({ status: 0, stdout: answers.join(''), stderr: '' });
      expect(await runBlock(reading[0] as Block, shell)).toEqual(asShown(reading[0] as Block));
    } finally {
      expect(await shell.gateway.stop(WAIT_MS)).toBe(0);
    }
  }, 240_000);

  describe('A minimal config', () => {
    const [config, ...moreConfigs] = BLOCKS.filter((b) => b.section === 'A minimal config' && b.lang === 'yaml');
    const [mistake, ...moreMistakes] = BLOCKS.filter((b) => b.section === 'A minimal config' && b.lang === 'text');

    it('is one YAML block, followed by one example of a mistake', () => {
      expect([config !== undefined, moreConfigs.length, mistake !== undefined, moreMistakes.length]).toEqual([true, 0, true, 0]);
    });

    it('validates, and runs as shown on a machine with no keys file yet: prints a key that its ingest accepts', async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'otelgate-readme-minimal-'));
      mkdirSync(join(cwd, 'pipelines'));
      writeFileSync(join(cwd, 'pipelines', 'my.yaml'), (config as Block).text);
      const validated = spawnSync(process.execPath, [CLI, 'validate', '--config', 'pipelines/my.yaml'], { cwd, encoding: 'utf8', timeout: 60_000 });
      expect([validated.status, validated.stdout, validated.stderr]).toEqual([0, 'OK\n', '']);

      // The one change: a free port for the README's localhost:4318.
      expect((config as Block).text).toContain('endpoint: localhost:4318\n');
      writeFileSync(join(cwd, 'pipelines', 'my.yaml'), (config as Block).text.replace('endpoint: localhost:4318\n', 'endpoint: 127.0.0.1:0\n'));
      const gateway = new RunningCli(['--config', 'pipelines/my.yaml'], { cwd });
      try {
        const endpoint = String((await gateway.waitFor('Starting HTTP server', WAIT_MS))['endpoint']);
        await gateway.waitFor('Everything is ready', WAIT_MS);
        const key = await gateway.printedKey(WAIT_MS);
        const answer = await fetch(`http://${endpoint}/api/v1/ingest`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: '{"message": "hello"}' });
        expect([answer.status, await answer.text()]).toEqual([202, '{"accepted":1,"skipped":0}']);
        // The debug exporters print what the logs pipeline received.
        expect(await waitUntil(() => gateway.lines.some((l) => l.msg === 'Logs' && l['name'] === 'debug' && l['log records'] === 1), WAIT_MS)).toBe(true);
      } finally {
        expect(await gateway.stop(WAIT_MS)).toBe(0);
      }
    }, 180_000);

    it('with its first verbosity misspelled, otelgate validate prints the mistake the README shows', () => {
      const cwd = mkdtempSync(join(tmpdir(), 'otelgate-readme-mistake-'));
      mkdirSync(join(cwd, 'pipelines'));
      expect((config as Block).text).toContain('verbosity:');
      writeFileSync(join(cwd, 'pipelines', 'my.yaml'), (config as Block).text.replace('verbosity:', 'verbosty:'));
      const validated = spawnSync(process.execPath, [CLI, 'validate', '--config', 'pipelines/my.yaml'], { cwd, encoding: 'utf8', timeout: 60_000 });
      expect([validated.status, validated.stdout, validated.stderr]).toEqual([1, '', `${(mistake as Block).text}\n`]);
    });
  });
});
