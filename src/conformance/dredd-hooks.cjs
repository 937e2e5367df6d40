// Dredd hooks (CommonJS, loaded by Dredd): each transaction is sent as the plan written by
// src/conformance/stages/dredd.ts says, and its real response is checked against the schema of
// the bundled document with a JSON Schema 2020-12 validator (Dredd itself does not check bodies
// against OpenAPI 3 schemas). A transaction the plan does not know fails, so a renamed summary
// cannot silently skip a check. Results go to the file the plan names.
const hooks = require('hooks');
const fs = require('node:fs');
const crypto = require('node:crypto');
const { Ajv2020 } = require('ajv/dist/2020');
const addFormats = require('ajv-formats');

const plan = JSON.parse(fs.readFileSync(process.env.MESSAGING_CONFORMANCE_PLAN, 'utf8'));
const documentId = 'urn:messaging-contract:openapi';
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
ajv.addSchema(JSON.parse(fs.readFileSync(plan.documentPath, 'utf8')), documentId);
const results = { ran: [], unplanned: [], problems: {} };

hooks.beforeEach((transaction, done) => {
  const step = plan.transactions[transaction.name];
  if (!step) {
    results.unplanned.push(transaction.name);
    transaction.fail = `no planned handling for "${transaction.name}"`;
    return done();
  }
  transaction.skip = false;
  let body = step.body;
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    parsed = undefined; // a malformed body is sent as it is
  }
  if (parsed && typeof parsed === 'object') {
    if (step.freshRequestId) parsed.requestId = crypto.randomUUID();
    if (step.freshExtUserId) {
      parsed.addresses = parsed.addresses.map((a) => (a.type === 'EXT_USER_ID' ? { ...a, address: `conformance-${crypto.randomUUID()}` } : a));
    }
    if (step.freshRequestId || step.freshExtUserId) body = JSON.stringify(parsed);
  }
  transaction.request.method = step.method;
  transaction.fullPath = step.path;
  transaction.request.uri = step.path;
  transaction.request.headers = { ...step.headers, 'content-length': body === undefined ? '0' : String(Buffer.byteLength(body)) };
  transaction.request.body = body === undefined ? '' : body;
  transaction.expected.statusCode = String(step.status);
  done();
});

hooks.beforeEachValidation((transaction, done) => {
  // The body is judged in afterEach against the real schema, not against Dredd's example.
  // Dredd's own check is left with "a JSON object" (its validator predates JSON Schema 2020-12).
  if (plan.transactions[transaction.name]) {
    delete transaction.expected.body;
    transaction.expected.bodySchema = { type: 'object' };
  }
  done();
});

hooks.afterEach((transaction, done) => {
  const step = plan.transactions[transaction.name];
  if (!step) return done();
  results.ran.push(transaction.name);
  const problems = [];
  const real = transaction.real || {};
  let body;
  try {
    body = JSON.parse(real.body);
  } catch (error) {
    problems.push(`body is not JSON: ${String(real.body).slice(0, 120)}`);
  }
  if (body !== undefined) {
    const validate = ajv.getSchema(`${documentId}#${step.schemaPointer.slice(1)}`) || ajv.compile({ $ref: `${documentId}#${step.schemaPointer.slice(1)}` });
    if (!validate(body)) problems.push(...validate.errors.map((e) => `${e.instancePath || '(body)'} ${e.message}`));
    if (step.title && (!body || step.titles.indexOf(body.title) === -1)) problems.push(`title ${JSON.stringify(body && body.title)}, expected ${step.title}`);
  }
  if (String(real.statusCode) !== String(step.status)) problems.push(`status ${real.statusCode}, expected ${step.status}`);
  if (problems.length) {
    results.problems[transaction.name] = problems;
    transaction.fail = problems.join('; ');
  }
  done();
});

hooks.afterAll((transactions, done) => {
  fs.writeFileSync(plan.resultsPath, JSON.stringify(results));
  done();
});
