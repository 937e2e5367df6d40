// "Try it" on the docs page the sandbox serves: a small console beside Redoc that sends a named
// request example (or an edited one) to this same sandbox and shows the answer. Same origin only:
// nothing leaves the machine, and no credential is written into the page (the fields are empty;
// the sandbox's default ones are named as placeholders).
import { documentOperations } from '../core/examples.ts';
import { openapi, resolvePointer } from '../core/document.ts';

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

/** JSON safe to put inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The console's markup and script, put before the page's </body>. */
export function tryItConsole(): string {
  return `
<div id="try-it" style="position:fixed;right:16px;bottom:16px;z-index:10000;font:13px system-ui,sans-serif">
  <button id="try-it-open" type="button" style="padding:8px 12px;border-radius:6px;border:1px solid #888;background:#fff;cursor:pointer">Try it against this sandbox</button>
  <form id="try-it-panel" hidden style="width:460px;max-height:80vh;overflow:auto;margin-top:8px;padding:12px;background:#fff;border:1px solid #888;border-radius:8px;box-shadow:0 4px 16px #0003">
    <label>Request <select id="try-it-example" style="width:100%"></select></label>
    <label>Body <textarea id="try-it-body" rows="10" style="width:100%;font:12px monospace"></textarea></label>
    <label><input id="try-it-fresh" type="checkbox" checked> a new requestId for each send</label><br>
    <label>x-api-key <input id="try-it-key" placeholder="sandbox-api-key" style="width:100%"></label>
    <label>Bearer token <input id="try-it-token" placeholder="sandbox-integrator-token" style="width:100%"></label>
    <button id="try-it-send" type="submit" style="margin-top:8px">Send</button>
    <pre id="try-it-answer" style="white-space:pre-wrap;font:12px monospace;background:#f6f6f6;padding:8px"></pre>
  </form>
</div>
<script>
(() => {
  const operations = ${scriptJson(consoleData())};
  const $ = (id) => document.getElementById('try-it-' + id);
  const choices = operations.flatMap((op) => Object.keys(op.examples).map((name) => ({ op, name })));
  for (const [i, c] of choices.entries()) {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = c.op.method + ' ' + c.op.path + ': ' + c.name;
    $('example').append(option);
  }
  const show = () => { const c = choices[Number($('example').value)]; $('body').value = JSON.stringify(c.op.examples[c.name], null, 2); };
  $('example').addEventListener('change', show);
  $('open').addEventListener('click', () => { $('panel').hidden = !$('panel').hidden; if (!$('body').value) show(); });
  $('panel').addEventListener('submit', async (event) => {
    event.preventDefault();
    const { op } = choices[Number($('example').value)];
    let body = $('body').value;
    if ($('fresh').checked) {
      try { const value = JSON.parse(body); if (value && typeof value === 'object' && 'requestId' in value) body = JSON.stringify({ ...value, requestId: crypto.randomUUID() }); } catch {}
    }
    const headers = { 'content-type': 'application/json' };
    for (const scheme of op.auth) {
      if (scheme.type === 'apiKey') headers[scheme.name] = $('key').value;
      else headers.authorization = 'Bearer ' + $('token').value;
    }
    $('answer').textContent = 'sending...';
    try {
      const response = await fetch(op.path, { method: op.method, headers, body });
      const text = await response.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
      $('answer').textContent = response.status + '\\n' + shown;
    } catch (error) {
      $('answer').textContent = 'no answer: ' + error.message;
    }
  });
})();
</script>
`;
}
