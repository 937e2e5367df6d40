import { readFileSync } from 'node:fs';
import { compareDocuments } from './src/diff/compare.ts';
const doc = JSON.parse(readFileSync('generated/openapi.json','utf8'));
const S = (d:any) => d.components.schemas;
const cases: Record<string,(d:any)=>void> = {
  statusAtDropped: d => { S(d).StatusCallback.required = S(d).StatusCallback.required.filter((x:string)=>x!=='statusAt'); },
  subjectRequired: d => { S(d).StatusCallback.required.push('subject'); },
  webhookRemoved: d => { delete d.webhooks; },
  maxContains: d => { S(d).KeyboardButtons.then.maxContains = 1; },
  maxLenLower: d => { S(d).CloseThreadsRequest.properties.comment.maxLength = 200; },
  none: d => {},
};
for (const [name, f] of Object.entries(cases)) {
  const after = structuredClone(doc); f(after);
  const t = Date.now();
  const changes = compareDocuments(doc, after);
  console.log(name, Date.now()-t, 'ms'); for (const c of changes) console.log('  ', c.class, c.found, c.sentence.slice(0,400), c.pointer);
}
const more: Record<string,(d:any)=>void> = {
  bothWaysTighten: d => { S(d).ThreadId.maximum = 2147483647; },
  bothWaysLoosen: d => { delete S(d).ThreadId.format; },
  openSet: d => { S(d).KnownErrorCode.enum.push('rate-limited'); },
  deliveryOpen: d => { S(d).KnownDeliveryStatus.enum.push('READ'); },
  webhookPayloadTypeChanged: d => { S(d).StatusCallback.properties.subjectId = { type: 'string' }; },
  webhookAnswerBody: d => { d.webhooks.messageStatus.post.responses['200'].content = {'application/json': {schema: {type:'object', required:['ok'], properties:{ok:{type:'boolean'}}}}}; },
  webhookAnswerRemoved: d => { d.webhooks.messageStatus.post.responses = {'204': {description: 'x'}}; },
  payloadMaxLength: d => { S(d).StatusCallback.properties.comment = { ...S(d).StatusCallback.properties.comment, maxLength: 10 }; },
};
for (const [name, f] of Object.entries(more)) {
  const after = structuredClone(doc); f(after);
  const changes = compareDocuments(doc, after);
  console.log(name); for (const c of changes) console.log('  ', c.class, c.found, c.sentence.slice(0,300), c.pointer);
}
