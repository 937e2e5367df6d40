// "Try it" on the docs page the sandbox serves: under each operation's request samples, a console
// that sends a named request example (or an edited one) to this same sandbox and shows the answer
// with its status and headers. It is drawn with the page's own design tokens (Redoc 3's CSS
// variables), so it follows the page's fonts, spacing and light or dark mode. Same origin only:
// nothing leaves the machine, and no credential is written into a field: the default fixtures'
// ones are shown as help text beside the fields, never as values or placeholders.
import { documentOperations } from '../core/examples.ts';
import { openapi, resolvePointer } from '../core/document.ts';
import { loadFixtures } from './fixtures.ts';

type Obj = Record<string, unknown>;

/** Each operation with its named request examples, as the console offers them. */
function consoleData() {
  return documentOperations().map((op) => {
    const media = ((resolvePointer(op.pointer) as Obj).requestBody as Obj | undefined)?.content as Obj | undefined;
    const examples = ((media?.['application/json'] as Obj | undefined)?.examples ?? {}) as Record<
      string,
      { value?: unknown; $ref?: string }
    >;
    return {
      id: op.operationId,
      method: op.method,
      path: op.path,
      // Which credential field the request needs: the security scheme's kind, read from the document.
      auth: op.security.map(
        (name) =>
          ((openapi.components as Obj).securitySchemes as Record<string, { type: string; name?: string }>)[name]!,
      ),
      examples: Object.fromEntries(
        Object.entries(examples).map(([name, ex]) => [
          name,
          (ex.$ref ? (resolvePointer(ex.$ref) as { value: unknown }) : ex).value,
        ]),
      ),
    };
  });
}

/** The default fixtures' credentials, named as help beside the fields. */
function defaultCredentials() {
  const fixtures = loadFixtures();
  return {
    apiKeys: fixtures.apiKeys.map((k) => ({ key: k.key, balance: k.balance > 0 })),
    token: fixtures.integratorTokens[0] ?? '',
  };
}

/** JSON safe to put inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

// Redoc 3's design tokens: each has its light and dark value on the page's root.
const style = `
.mc-try-it{margin-top:var(--spacing-base,16px);padding:var(--spacing-sm,12px) var(--spacing-base,16px) var(--spacing-base,16px);border:var(--panel-border,1px solid #ededf2);border-radius:var(--border-radius-lg,8px);background:var(--panel-samples-bg-color,var(--layer-color,#fbfbfc));color:var(--text-color-primary,#1a1c21);font-family:var(--font-family-base,system-ui,sans-serif);font-size:var(--font-size-base,14px);line-height:var(--line-height-base,22px)}
.mc-try-it h3{margin:0 0 var(--spacing-xs,8px);font-size:var(--font-size-base,14px);font-weight:var(--font-weight-bold,700)}
.mc-try-it label{display:block;margin-top:var(--spacing-xs,8px);font-weight:var(--font-weight-medium,500);color:var(--text-color-secondary,#3b3c45)}
.mc-try-it select,.mc-try-it input[type=text],.mc-try-it textarea{box-sizing:border-box;display:block;width:100%;margin-top:4px;padding:6px 8px;border:1px solid var(--input-border-color,var(--border-color-primary,#dcdde5));border-radius:var(--border-radius-md,6px);background:var(--input-bg-color,var(--bg-color,#fff));color:var(--text-color-primary,#1a1c21);font:inherit;font-weight:400}
.mc-try-it textarea{font-family:var(--code-font-family,ui-monospace,monospace);font-size:var(--font-size-sm,12px);line-height:1.5;resize:vertical}
.mc-try-it .mc-check{display:flex;gap:6px;align-items:center;font-weight:400}
.mc-try-it .mc-help{margin:2px 0 0;font-size:var(--font-size-sm,12px);color:var(--text-color-description,#555761)}
.mc-try-it code{font-family:var(--code-font-family,ui-monospace,monospace);font-size:var(--font-size-sm,12px)}
.mc-try-it button{margin-top:var(--spacing-sm,12px);padding:5px var(--spacing-sm,12px);border:0;border-radius:var(--border-radius-lg,8px);background:var(--button-bg-color-primary,#1f7cff);color:var(--button-content-color-inverse,#fff);font:inherit;font-weight:var(--font-weight-medium,500);cursor:pointer}
.mc-try-it .mc-answer{margin-top:var(--spacing-sm,12px)}
.mc-try-it .mc-status{font-weight:var(--font-weight-bold,700)}
.mc-try-it .mc-status[data-ok=true]{color:var(--color-success-base,#1cb854)}
.mc-try-it .mc-status[data-ok=false]{color:var(--color-error-base,#f9316d)}
.mc-try-it pre{margin:4px 0 0;padding:8px;max-height:320px;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;border-radius:var(--border-radius-md,6px);background:var(--code-block-bg-color,var(--bg-color,#fff));border:1px solid var(--border-color-secondary,#ededf2);font-family:var(--code-font-family,ui-monospace,monospace);font-size:var(--font-size-sm,12px);line-height:1.5}
`;

/** The console's style and script, put before the page's </body>; the script adds one console per operation. */
export function tryItConsole(): string {
  return `
<style>${style}</style>
<script>
(() => {
  const operations = ${scriptJson(consoleData())};
  const defaults = ${scriptJson(defaultCredentials())};
  // What a reader typed stays when Redoc draws an operation again.
  const typed = { key: '', token: '' };
  const el = (tag, props = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), props);
    node.append(...children);
    return node;
  };
  const code = (text) => el('code', { textContent: text });
  const help = (...parts) => el('p', { className: 'mc-help' }, ...parts);

  function consoleFor(op) {
    const names = Object.keys(op.examples);
    const select = el('select', { name: 'example' }, ...names.map((name) => el('option', { value: name, textContent: name })));
    const body = el('textarea', { name: 'body', rows: 12, spellcheck: false });
    const show = () => { body.value = JSON.stringify(op.examples[select.value], null, 2); };
    select.addEventListener('change', show);
    show();
    const form = el('form', { className: 'mc-try-it', ariaLabel: 'Try ' + op.method + ' ' + op.path + ' against this sandbox' });
    form.dataset.operation = op.id;
    form.append(el('h3', { textContent: 'Try it against this sandbox' }), el('label', {}, 'Request example', select), el('label', {}, 'Body', body));
    const fresh = el('input', { type: 'checkbox', checked: true, name: 'fresh' });
    if (names.some((name) => op.examples[name] && typeof op.examples[name] === 'object' && 'requestId' in op.examples[name]))
      form.append(el('label', { className: 'mc-check' }, fresh, 'A new requestId for each send (one is taken once)'));
    const fields = [];
    for (const scheme of op.auth) {
      if (scheme.type === 'apiKey') {
        const input = el('input', { type: 'text', name: 'key', autocomplete: 'off', value: typed.key });
        input.addEventListener('input', () => { typed.key = input.value; });
        fields.push([scheme, input]);
        const withBalance = defaults.apiKeys.filter((k) => k.balance).map((k) => k.key);
        const without = defaults.apiKeys.filter((k) => !k.balance).map((k) => k.key);
        form.append(el('label', {}, scheme.name + ' header', input),
          help('With the default fixtures: ', ...withBalance.flatMap((k) => [code(k), ' ']), ...(without.length ? ['(', code(without[0]), ' has no balance)'] : [])));
      } else {
        const input = el('input', { type: 'text', name: 'token', autocomplete: 'off', value: typed.token });
        input.addEventListener('input', () => { typed.token = input.value; });
        fields.push([scheme, input]);
        form.append(el('label', {}, 'Bearer token (INTEGRATOR)', input), help('With the default fixtures: ', code(defaults.token)));
      }
    }
    const status = el('div', { className: 'mc-status' });
    const headers = el('pre', { className: 'mc-headers' });
    const answer = el('pre', { className: 'mc-body' });
    const shown = el('div', { className: 'mc-answer', hidden: true }, status, headers, answer);
    form.append(el('button', { type: 'submit', textContent: 'Send ' + op.method + ' ' + op.path }), shown);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      let text = body.value;
      if (fresh.checked) {
        // The text is edited, not parsed and written again: JSON.parse would round an int64 id past 2^53.
        text = text.replace(/("requestId"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"/, (_, key) => key + JSON.stringify(crypto.randomUUID()));
      }
      const sent = { 'content-type': 'application/json' };
      for (const [scheme, input] of fields) {
        if (scheme.type === 'apiKey') sent[scheme.name] = input.value;
        else sent.authorization = 'Bearer ' + input.value;
      }
      shown.hidden = false;
      status.textContent = 'sending...';
      status.removeAttribute('data-ok');
      headers.textContent = answer.textContent = '';
      const started = performance.now();
      try {
        const response = await fetch(op.path, { method: op.method, headers: sent, body: text });
        const raw = await response.text();
        status.dataset.ok = String(response.ok);
        status.textContent = response.status + ' ' + response.statusText + ' \\u00b7 ' + Math.round(performance.now() - started) + ' ms';
        headers.textContent = [...response.headers].map(([name, value]) => name + ': ' + value).join('\\n');
        // Shown as it came when it may hold an integer past 2^53, which JSON.parse would round.
        if (/\\d{16}/.test(raw)) answer.textContent = raw;
        else try { answer.textContent = JSON.stringify(JSON.parse(raw), null, 2); } catch { answer.textContent = raw; }
      } catch (error) {
        status.dataset.ok = 'false';
        status.textContent = 'no answer: ' + error.message;
      }
    });
    return form;
  }

  // Redoc draws an operation's panels as a reader reaches it: each request samples panel of an
  // operation gets its console right under it ("POST /path" in the panel names the operation).
  function attach() {
    for (const panel of document.querySelectorAll('.panel-request-samples')) {
      const container = panel.closest('.panel-container-request-samples') || panel;
      if (container.nextElementSibling?.classList.contains('mc-try-it')) continue;
      // The panel's header names its operation: an element reading the path, one reading the method.
      const texts = [...panel.querySelectorAll('span, div')].map((node) => node.textContent.trim());
      const op = operations.find((o) => texts.includes(o.path) && texts.includes(o.method));
      if (op) container.after(consoleFor(op));
    }
  }
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; attach(); });
  }).observe(document.body, { childList: true, subtree: true });
  attach();
})();
</script>
`;
}
