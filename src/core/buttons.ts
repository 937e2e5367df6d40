// The button limits hold for all rows of a WhatsApp template together, which the request schema
// (checking row by row) cannot see: the flattened buttons are checked against KeyboardButtons.
import { validator } from './validators/requests.ts';

const keyboardButtons = validator('#/components/schemas/KeyboardButtons');

const rowsOf = (body: unknown) =>
  (body as { content?: { whatsappContent?: { keyboard?: { rows?: unknown } } } } | null)?.content?.whatsappContent
    ?.keyboard?.rows;
const allButtons = (rows: unknown[]) =>
  rows.flatMap((row) => {
    const buttons = (row as { buttons?: unknown } | null)?.buttons;
    return Array.isArray(buttons) ? buttons : [];
  });

/** Field errors of the buttons of all rows together; empty when they keep the limits. */
export function allRowsButtonErrors(body: unknown): string[] {
  const rows = rowsOf(body);
  if (!Array.isArray(rows)) return [];
  return keyboardButtons(allButtons(rows)).errors.map((e) =>
    e.replace(/^\(body\)/, 'content.whatsappContent.keyboard (all rows)'),
  );
}

/** The body with every row's buttons in its first row, where the request schema sees the limits across rows. */
export function buttonsInOneRow(body: unknown): unknown {
  const rows = rowsOf(body);
  if (!Array.isArray(rows) || rows.length < 2) return body;
  const copy = structuredClone(body) as { content: { whatsappContent: { keyboard: { rows: unknown[] } } } };
  copy.content.whatsappContent.keyboard.rows = [{ ...(rows[0] as object), buttons: allButtons(rows) }];
  return copy;
}
