// The exporter's HTTP client choice, measured: got and undici (and node:http for reference) POST the
// same bodies to a sink on loopback that reads each body and answers 200. The sink runs in a child
// process, so the CPU time counted here is the client's alone. Runs are interleaved (each round runs
// every client on every size) and the median of the rounds is reported.
//
//   npm install --no-save got@14.6.5 && npx node bench/http-client.mjs [rounds]   (undici is a dependency; got is not)
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const CONCURRENCY = 8;
const SIZES = [
  { label: '1 KB', bytes: 1024, requests: 20000 },
  { label: '64 KB', bytes: 64 * 1024, requests: 8000 },
  { label: '1 MB', bytes: 1024 * 1024, requests: 800 },
];

if (process.argv[2] === 'sink') {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-length': '0' });
      res.end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.(server.address().port));
} else {
  await main(Number(process.argv[2] ?? 5));
}

async function main(rounds) {
  const { got } = await import('got');
  const undici = await import('undici');
  const sink = fork(fileURLToPath(import.meta.url), ['sink']);
  const port = await new Promise((resolve) => sink.once('message', resolve));
  const url = `http://127.0.0.1:${port}/v1/logs`;
  const headers = { 'content-type': 'application/x-protobuf' };

  const undiciAgent = new undici.Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
  const gotAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const nodeAgent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  const clients = {
    undici: async (body) => {
      const res = await undici.request(url, { method: 'POST', body, headers, dispatcher: undiciAgent });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    },
    got: async (body) => {
      const res = await got.post(url, { body, headers, agent: { http: gotAgent }, retry: { limit: 0 }, throwHttpErrors: false, responseType: 'buffer' });
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`);
    },
    'node:http': (body) =>
      new Promise((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent: nodeAgent, headers: { ...headers, 'content-length': body.length } }, (res) => {
          res.on('data', () => {});
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`status ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end(body);
      }),
  };

  async function run(send, body, requests) {
    let next = 0;
    const worker = async () => {
      while (next < requests) {
        next++;
        await send(body);
      }
    };
    const cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const used = process.cpuUsage(cpu);
    return { rps: requests / seconds, cpuUs: (used.user + used.system) / requests };
  }

  const results = {};
  for (const size of SIZES) {
    const body = Buffer.alloc(size.bytes, 'x');
    for (const [name, send] of Object.entries(clients)) await run(send, body, Math.ceil(size.requests / 4));
  }
  for (let round = 0; round < rounds; round++) {
    for (const size of SIZES) {
      const body = Buffer.alloc(size.bytes, 'x');
      for (const [name, send] of Object.entries(clients)) {
        const key = `${size.label}\t${name}`;
        (results[key] ??= []).push(await run(send, body, size.requests));
      }
    }
  }

  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`node ${process.version}, ${CONCURRENCY} concurrent, median of ${rounds} interleaved rounds`);
  console.log('body\tclient\trequests/s\tclient CPU µs/request');
  for (const [key, runs] of Object.entries(results)) {
    console.log(`${key}\t${median(runs.map((r) => r.rps)).toFixed(0)}\t${median(runs.map((r) => r.cpuUs)).toFixed(1)}`);
  }
  await undiciAgent.close();
  gotAgent.destroy();
  nodeAgent.destroy();
  sink.kill();
}
