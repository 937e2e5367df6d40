import { apiCompare } from 'api-smart-diff';
import { readFileSync } from 'node:fs';
import { wireView } from './src/diff/wire.ts';
const doc = JSON.parse(readFileSync('generated/openapi.json','utf8'));
const S = (d:any) => d.components.schemas;
const cases: Record<string,(d:any)=>void> = {
  deliveryOpen: d => { S(d).KnownDeliveryStatus.enum.push('READ'); },
  respType: d => { S(d).ThreadId.type = 'string'; },
};
for (const [name, f] of Object.entries(cases)) {
  const after = structuredClone(doc); f(after);
  const { diffs } = apiCompare(wireView(doc), wireView(after));
  console.log(name); for (const d of diffs) console.log('  ', d.type, d.action, d.path.join('/'), JSON.stringify(d.before)?.slice(0,50), JSON.stringify(d.after)?.slice(0,50));
}
