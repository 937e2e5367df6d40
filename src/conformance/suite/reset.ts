// The reset hook: a team's way back to the examples' state before each stage, a URL to POST and/or a shell command.
import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import { clip, type RecordedExchange } from '../ground/model.ts';
import { requestSignal, type SuiteContext } from './context.ts';
import { exchange } from '../ground/transport.ts';

/**
 * Runs the reset hook; resolves with why it failed, or undefined. It may take longer than an answer: up to 30 s, within
 * the deadline. Its POST is heard as a reset (`observe`, --record): the recording judged again restarts the rules too.
 */
export async function reset(
  ctx: SuiteContext,
  hook: { url?: string; command?: string },
  observe?: (x: RecordedExchange) => void,
): Promise<string | undefined> {
  const ms = Math.max(ctx.timeoutMs, 30_000);
  if (hook.url) {
    // A URL's user:secret@ (as curl takes them) goes as Basic auth, never in the URL sent, never printed.
    const target = new URL(hook.url);
    const headers: Record<string, string> = {};
    if (target.username || target.password) {
      headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
      [target.username, target.password] = ['', ''];
    }
    const request = { method: 'POST', url: String(target), headers, body: undefined };
    await ctx.throttle.pace(ctx.deadlineAt); // a request of the run: at its pace
    const at = Date.now();
    try {
      const res = await exchange({ ...request, signal: requestSignal(ctx, ms) });
      const response = { status: res.status, headers: res.headers, body: res.text };
      const ok = res.status >= 200 && res.status <= 299;
      observe?.({ at, request, response, source: `reset before ${ctx.stage.name ?? 'the run'}`, reset: ok });
      if (!ok) return `POST ${target} answered ${res.status} ${clip(res.text, 200)}`;
    } catch (error) {
      return `POST ${target} got no answer: ${(error as Error).message}`;
    }
  }
  if (hook.command) {
    const left = Math.max(1, Math.min(ms, ctx.deadlineAt - Date.now()));
    try {
      await promisify(exec)(hook.command, { timeout: left, maxBuffer: 1024 * 1024 });
    } catch (error) {
      const e = error as { code?: unknown; killed?: boolean; stderr?: string; message: string };
      const said = clip((e.stderr ?? '').trim().split('\n').slice(-3).join(' / '), 300);
      return `${JSON.stringify(hook.command)} ${e.killed ? `did not end within ${left} ms` : `exited ${String(e.code ?? e.message)}`}${said ? `: ${said}` : ''}`;
    }
  }
  return undefined;
}
