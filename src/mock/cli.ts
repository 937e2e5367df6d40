// npm run mock: the Prism mock on generated/openapi.json (a root tool; Prism is not in any package).
import { parse, port, runCli, serverOptions, stopOnSignal } from '../core/cli.ts';
import { startPrism } from './prism.ts';

const usage = `usage: npm run mock -- [--host 127.0.0.1] [--port 4010]
  the Prism mock on generated/openapi.json; pick an example with "Prefer: code=<status>, example=<name>"
`;

runCli('mock', usage, async (args) => {
  const o = parse(args, serverOptions);
  const prism = await startPrism({ host: o.host, port: port(o.port, 4010), stdio: 'inherit', args: [] });
  console.log(`Prism mock: ${prism.url} (select an example with "Prefer: code=<status>, example=<name>")`);
  stopOnSignal(prism.stop);
});
