// The button limits hold for all rows of a WhatsApp template together, which the request schema
// (checking row by row) cannot see: the flattened buttons are checked against KeyboardButtons.
import { allButtons, keyboardRows } from './button-rows.ts';
import { validator } from './validators/requests.ts';

const keyboardButtons = validator('#/components/schemas/KeyboardButtons');

/** Field errors of the buttons of all rows together; empty when they keep the limits. */
export function allRowsButtonErrors(body: unknown): string[] {
  const rows = keyboardRows(body);
  if (!rows) return [];
  return keyboardButtons(allButtons(rows)).errors.map((e) =>
    e.replace(/^\(body\)/, 'content.whatsappContent.keyboard (all rows)'),
  );
}
