// The button limits hold for all rows of a WhatsApp template together, which the request schema
// (checking row by row) cannot see: the flattened buttons are checked against KeyboardButtons.
import { validator } from './validators/requests.ts';

const keyboardButtons = validator('#/components/schemas/KeyboardButtons');

/** Field errors of the buttons of all rows together; empty when they keep the limits. */
export function allRowsButtonErrors(body: unknown): string[] {
  const rows = (body as { content?: { whatsappContent?: { keyboard?: { rows?: unknown } } } } | null)?.content
    ?.whatsappContent?.keyboard?.rows;
  if (!Array.isArray(rows)) return [];
  const all = rows.flatMap((row: { buttons?: unknown }) => (Array.isArray(row?.buttons) ? row.buttons : []));
  return keyboardButtons(all).errors.map((e) => e.replace(/^\(body\)/, 'content.whatsappContent.keyboard (all rows)'));
}
