// "Try it" on the docs page the sandbox serves: under each operation's request samples, a console
// that sends a named request example (or an edited one) to this same sandbox and shows the answer
// with its status and headers, and a button that resets the sandbox to its fixtures. It is drawn
// with the page's own design tokens (Redoc 3's CSS variables), so it follows the page's fonts,
// spacing and light or dark mode. Same origin only: nothing leaves the machine, and no credential is
// written into a field: the default fixtures' ones are shown as help text beside the fields, never
// as values or placeholders. Only the sandbox adds the console (docs.ts): the page opened from disk
// or a static host has neither the console nor the reset, since no sandbox is behind it.
import { documentOperations, examplePairs, type ExamplePair } from '../core/examples.ts';
import { openapi } from '../core/document.ts';
import { sandboxResetPath } from '../core/meta.ts';
import { loadFixtures } from './fixtures.ts';

type Obj = Record<string, unknown>;

/**
 * What a second send of an example answers, as the console sends it (a new requestId each time while the box is
 * ticked): `same`, the example's answer again (a refused request changes nothing); `other`, the answer of the
 * operation's example that is the answer to a second send (`x-request: {sendTwice}`), with the same requestId where the
 * body has one; `may-differ`, an accepted request whose changes to the state may change the answer.
 */
export type SentAgain =
  | { kind: 'same' }
  | { kind: 'other'; status: number; title: string; example: string; sameRequestId: boolean }
  | { kind: 'may-differ' };

const hasRequestId = (body: string) => /"requestId"\s*:/.test(body);

/** What a second send of `pair` answers (see SentAgain), read from the document's examples of its operation. */
export function sentAgain(pair: ExamplePair, body: string): SentAgain {
  if (pair.status >= 300) return { kind: 'same' };
  const second = examplePairs().find(
    (p) => p.operation.operationId === pair.operation.operationId && p.trigger.sendTwice === true,
  );
  const title = (second?.response as { title?: unknown } | undefined)?.title;
  if (!second || typeof title !== 'string') return { kind: 'may-differ' };
  return { kind: 'other', status: second.status, title, example: second.name, sameRequestId: hasRequestId(body) };
}

/**
 * The note under the example picker: how the example is sent, what it answers on a fresh (or reset) sandbox, and
 * what it answers sent again, where the sandbox's state makes that differ.
 */
export function exampleNote(
  ex: { status: number; credentials: string | null; sendTwice: boolean; body: string; again: SentAgain },
  noBalanceKey: string,
): string {
  const notes: string[] = [];
  if (ex.credentials === 'no-balance') notes.push(`Sent with the account without balance (${noBalanceKey}).`);
  if (ex.credentials === 'invalid') notes.push('Sent with a wrong credential.');
  if (ex.sendTwice)
    notes.push(
      `The answer to a second send: Send posts the request twice${hasRequestId(ex.body) ? ', with the same requestId,' : ''} and shows the second answer.`,
    );
  const fresh = `On a fresh sandbox this example answers ${ex.status}`;
  const reset = 'Reset the sandbox to start over.';
  const { again } = ex;
  // A refused request changes nothing; the first post of two sends may be accepted (a requestId taken), the second not.
  if (again.kind === 'same')
    notes.push(
      `${fresh}; sent again, it answers ${ex.status} again${ex.sendTwice ? '.' : ': a refused request changes nothing in the sandbox.'}`,
    );
  else if (again.kind === 'other' && again.sameRequestId)
    notes.push(
      `${fresh}, and ${ex.status} again with "A new requestId for each send" ticked. Sent again with the same requestId, it answers ${again.status} ${again.title}, as the example ${again.example} shows. ${reset}`,
    );
  else if (again.kind === 'other')
    notes.push(
      `${fresh}. Sent again, it answers ${again.status} ${again.title}, as the example ${again.example} shows: the first send changed the sandbox's state. ${reset}`,
    );
  else
    notes.push(
      `${fresh}. Sent again, it may answer otherwise: what an accepted request changes stays in the sandbox. ${reset}`,
    );
  return notes.join(' ');
}

/**
 * Each operation with its named examples, as the console offers them: every request/response pair of the document,
 * with what it takes to get that answer (the document's `x-request`: another body, method or path, the account without
 * balance or a wrong credential, two sends), the status the example shows on a fresh sandbox, what a second send
 * answers, and the note that says so.
 */
export function consoleOperations() {
  const pairs = examplePairs();
  const noBalanceKey = loadFixtures().apiKeys.find((k) => k.balance <= 0)?.key ?? '';
  return documentOperations().map((op) => ({
    id: op.operationId,
    method: op.method,
    path: op.path,
    // Which credential field the request needs: the security scheme's kind, read from the document.
    auth: op.security.map(
      (name) => ((openapi.components as Obj).securitySchemes as Record<string, { type: string; name?: string }>)[name]!,
    ),
    examples: pairs
      .filter((p) => p.operation.operationId === op.operationId)
      .map((p) => {
        const body = p.trigger.rawBody ?? (p.requestBody === undefined ? '' : JSON.stringify(p.requestBody, null, 2));
        const ex = {
          name: p.name,
          status: p.status,
          body,
          method: (p.trigger.method ?? op.method).toUpperCase(),
          path: p.trigger.path ?? op.path,
          credentials: p.trigger.credentials ?? null,
          sendTwice: p.trigger.sendTwice === true,
          again: sentAgain(p, body),
        };
        return { ...ex, note: exampleNote(ex, noBalanceKey) };
      }),
  }));
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
.mc-try-it .mc-help,.mc-try-it .mc-note,.mc-try-it .mc-samples-env,.mc-try-it .mc-reset-help,.mc-try-it .mc-reset-status{margin:2px 0 0;font-size:var(--font-size-sm,12px);color:var(--text-color-description,#555761)}
.mc-try-it code{font-family:var(--code-font-family,ui-monospace,monospace);font-size:var(--font-size-sm,12px)}
.mc-try-it button{margin-top:var(--spacing-sm,12px);padding:5px var(--spacing-sm,12px);border:0;border-radius:var(--border-radius-lg,8px);background:var(--button-bg-color-primary,#1f7cff);color:var(--button-content-color-inverse,#fff);font:inherit;font-weight:var(--font-weight-medium,500);cursor:pointer}
.mc-try-it button.mc-reset{margin-left:var(--spacing-xs,8px);background:transparent;color:var(--text-color-primary,#1a1c21);box-shadow:inset 0 0 0 1px var(--border-color-primary,#dcdde5)}
.mc-try-it button:disabled{opacity:.6;cursor:default}
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
  const operations = ${scriptJson(consoleOperations())};
  const resetPath = ${scriptJson(sandboxResetPath)};
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
    const select = el('select', { name: 'example' },
      ...op.examples.map((ex, i) => el('option', { value: String(i), textContent: ex.name + ' (' + ex.status + ')' })));
    const body = el('textarea', { name: 'body', rows: 12, spellcheck: false });
    const note = el('p', { className: 'mc-note' });
    const form = el('form', { className: 'mc-try-it', ariaLabel: 'Try ' + op.method + ' ' + op.path + ' against this sandbox' });
    form.dataset.operation = op.id;
    form.append(
      el('h3', { textContent: 'Try it against this sandbox' }),
      // The samples above read BASE_URL: served by the sandbox, the page knows it.
      el('p', { className: 'mc-samples-env' }, 'The code samples above run against this sandbox with ', code('BASE_URL=' + location.origin), ' and the credentials named below.'),
      el('label', {}, 'Example', select), note, el('label', {}, 'Body', body));
    const fresh = el('input', { type: 'checkbox', checked: true, name: 'fresh' });
    if (op.examples.some((ex) => /"requestId"\\s*:/.test(ex.body)))
      form.append(el('label', { className: 'mc-check' }, fresh, 'A new requestId for each send (one is taken once)'));
    const fields = [];
    for (const scheme of op.auth) {
      const kind = scheme.type === 'apiKey' ? 'key' : 'token';
      const input = el('input', { type: 'text', name: kind, autocomplete: 'off', value: typed[kind] });
      input.addEventListener('input', () => { typed[kind] = input.value; });
      fields.push([scheme, input, kind]);
      if (kind === 'key') {
        const withBalance = defaults.apiKeys.filter((k) => k.balance).map((k) => k.key);
        const without = defaults.apiKeys.filter((k) => !k.balance).map((k) => k.key);
        form.append(el('label', {}, scheme.name + ' header', input),
          help('With the default fixtures: ', ...withBalance.flatMap((k) => [code(k), ' ']), ...(without.length ? ['(', code(without[0]), ' has no balance)'] : [])));
      } else {
        form.append(el('label', {}, 'Bearer token (INTEGRATOR)', input), help('With the default fixtures: ', code(defaults.token)));
      }
    }
    const button = el('button', { type: 'submit' });
    // The reset: POST /_sandbox/reset of this same sandbox, which serves this console (a page without a sandbox has none).
    const reset = el('button', { type: 'button', name: 'reset', className: 'mc-reset', textContent: 'Reset the sandbox' });
    const resetDone = el('p', { className: 'mc-reset-status' });
    resetDone.setAttribute('role', 'status');
    const status = el('div', { className: 'mc-status' });
    const headers = el('pre', { className: 'mc-headers' });
    const answer = el('pre', { className: 'mc-body' });
    const shown = el('div', { className: 'mc-answer', hidden: true }, status, headers, answer);
    form.append(el('div', { className: 'mc-buttons' }, button, reset), resetDone,
      el('p', { className: 'mc-reset-help' }, 'Reset puts the whole sandbox back to the fixtures it started with, for everyone who uses it: subscribers created, threads closed and requestIds taken are undone, and the callback log is emptied.'),
      shown);
    reset.addEventListener('click', async () => {
      reset.disabled = true;
      resetDone.textContent = 'resetting...';
      try {
        const response = await fetch(resetPath, { method: 'POST' });
        await response.arrayBuffer();
        // The answer shown was the state's before the reset: it goes.
        if (response.ok) shown.hidden = true;
        resetDone.textContent = response.ok
          ? 'The sandbox is reset: back to its fixtures, as fresh. Each example answers as its note says.'
          : 'The reset failed: ' + response.status + ' ' + response.statusText + '.';
      } catch (error) {
        resetDone.textContent = 'The reset failed: ' + error.message;
      } finally {
        reset.disabled = false;
      }
    });
    const picked = () => op.examples[Number(select.value)];
    // Picking an example sets what it needs: its body, method and path, the credential it is about, and its note: how
    // it is sent, what it answers on a fresh sandbox and sent again.
    const show = () => {
      const ex = picked();
      body.value = ex.body;
      button.textContent = 'Send ' + ex.method + ' ' + ex.path;
      const noBalance = defaults.apiKeys.find((k) => !k.balance)?.key ?? '';
      for (const [, input, kind] of fields)
        input.value = ex.credentials === 'invalid' ? 'not-a-valid-credential'
          : ex.credentials === 'no-balance' && kind === 'key' ? noBalance
          : typed[kind];
      note.textContent = ex.note;
    };
    select.addEventListener('change', show);
    show();
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const ex = picked();
      let text = body.value;
      if (fresh.checked) {
        // The text is edited, not parsed and written again: JSON.parse would round an int64 id past 2^53.
        text = text.replace(/("requestId"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"/, (_, key) => key + JSON.stringify(crypto.randomUUID()));
        body.value = text; // the body shown is the body sent
      }
      const sent = { 'content-type': 'application/json' };
      for (const [scheme, input] of fields) {
        if (scheme.type === 'apiKey') sent[scheme.name] = input.value;
        else sent.authorization = 'Bearer ' + input.value;
      }
      shown.hidden = false;
      resetDone.textContent = '';
      status.textContent = 'sending...';
      status.removeAttribute('data-ok');
      headers.textContent = answer.textContent = '';
      const started = performance.now();
      const send = () => fetch(ex.path, {
        method: ex.method,
        headers: sent,
        body: ex.method === 'GET' || ex.method === 'HEAD' ? undefined : text,
      });
      try {
        if (ex.sendTwice) await (await send()).arrayBuffer();
        const response = await send();
        const raw = await response.text();
        status.dataset.ok = String(response.ok);
        status.textContent = response.status + ' ' + response.statusText + (ex.sendTwice ? ' (second send)' : '') + ' \\u00b7 ' + Math.round(performance.now() - started) + ' ms';
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
