// Ceiling (a): a bare Node HTTP server that reads the whole body and answers {}. With
// --protobufjs it also decodes an OTLP logs body to rows with protobufjs: the same pipeline as
// otelgate's, built on protobufjs decoding. Prints "listening <port>" once it is.
import { createServer } from 'node:http';
import { protobufjsLogRows } from './protobufjs-rows.mjs';

const decode = process.argv.includes('--protobufjs');
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (decode) protobufjsLogRows(Buffer.concat(chunks));
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '2' });
    res.end('{}');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
