// Dredd hooks (CommonJS, loaded by Dredd): each transaction is sent as the plan written by
// stages/dredd.ts says, and its real answer is recorded for that stage to judge against the
// document's schemas (Dredd itself does not check bodies against OpenAPI 3 schemas). A transaction
// the plan does not know fails, so a renamed summary cannot silently skip a check. The record goes
// to the file the plan names.
const hooks = require('hooks');
const fs = require('node:fs');
const crypto = require('node:crypto');

const plan = JSON.parse(fs.readFileSync(process.env.MESSAGING_CONFORMANCE_PLAN, 'utf8'));
const results = { ran: {}, unplanned: [] };

hooks.beforeEach((transaction, done) => {
  const step = plan.transactions[transaction.name];
  if (!step) {
    results.unplanned.push(transaction.name);
    transaction.fail = `no planned handling for "${transaction.name}"`;
    return done();
  }
  // A transaction outside the run's profile is skipped: Dredd does not count it as a failure.
  transaction.skip = step.skip;
  if (step.skip) return done();
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
  // The body is judged by the stage against the real schema, not against Dredd's example.
  // Dredd's own check is left with "a JSON object" (its validator predates JSON Schema 2020-12).
  if (plan.transactions[transaction.name]) {
    delete transaction.expected.body;
    transaction.expected.bodySchema = { type: 'object' };
  }
  done();
});

hooks.afterEach((transaction, done) => {
  if (plan.transactions[transaction.name]) {
    const real = transaction.real || {};
    results.ran[transaction.name] = { status: Number(real.statusCode), body: real.body === undefined ? null : String(real.body) };
  }
  done();
});

hooks.afterAll((transactions, done) => {
  fs.writeFileSync(plan.resultsPath, JSON.stringify(results));
  done();
});
