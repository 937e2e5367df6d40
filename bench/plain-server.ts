// The baseline for the sandbox benchmark: node:http reading the body and answering the same JSON
// the sandbox answers to a valid schedule-cascade request.
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const { requestId } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { requestId: string };
    const text = JSON.stringify({ requestId });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}).listen(port, '127.0.0.1');
// A normal exit on SIGTERM, so that `node --cpu-prof` (bench/profile.ts) writes its profile.
process.once('SIGTERM', () => process.exit(0));
