// The baseline for the proxy benchmark: node:http forwarding each request to the target over kept connections and
// piping the answer back, judging nothing. Usage: bare-proxy.ts <target> <port>.
import { Agent, createServer, request } from 'node:http';

const [target, port] = [new URL(process.argv[2]!), Number(process.argv[3])];
const agent = new Agent({ keepAlive: true });
createServer((req, res) => {
  const headers = { ...req.headers, host: target.host };
  delete headers.connection;
  const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers, agent }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}).listen(port, '127.0.0.1');
process.once('SIGTERM', () => process.exit(0));
