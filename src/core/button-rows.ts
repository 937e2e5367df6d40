// The rows of a WhatsApp template's keyboard read as one list of buttons: the button limits hold
// for all rows together. Apart from the validators, so a reader that validates with its own
// (the breaking-change gate's witnesses) does not load them.

const rowsOf = (body: unknown) =>
  (body as { content?: { whatsappContent?: { keyboard?: { rows?: unknown } } } } | null)?.content?.whatsappContent
    ?.keyboard?.rows;

/** Every row's buttons, in order. */
export const allButtons = (rows: unknown[]) =>
  rows.flatMap((row) => {
    const buttons = (row as { buttons?: unknown } | null)?.buttons;
    return Array.isArray(buttons) ? buttons : [];
  });

/** The rows of the body's keyboard, when it has some. */
export const keyboardRows = (body: unknown): unknown[] | undefined => {
  const rows = rowsOf(body);
  return Array.isArray(rows) ? rows : undefined;
};

/** The body with every row's buttons in its first row, where the request schema sees the limits across rows. */
export function buttonsInOneRow(body: unknown): unknown {
  const rows = keyboardRows(body);
  if (!rows || rows.length < 2) return body;
  const copy = structuredClone(body) as { content: { whatsappContent: { keyboard: { rows: unknown[] } } } };
  copy.content.whatsappContent.keyboard.rows = [{ ...(rows[0] as object), buttons: allButtons(rows) }];
  return copy;
}
