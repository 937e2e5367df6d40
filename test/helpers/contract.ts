// The contract's values, read from the bundled document: a test that needs a limit takes it from
// here, so a legitimate change of the contract leaves it green (only test/contract-facts.test.ts
// holds the document to the description).
import { resolvePointer } from '../../src/core/document.ts';

/** A keyword's value in the document's schema at `pointer`; a missing one fails, naming both. */
export function keywordAt<T = number>(pointer: string, keyword: string): T {
  const node = resolvePointer(pointer) as Record<string, unknown> | undefined;
  if (node === undefined || !(keyword in node)) throw new Error(`the document has no ${keyword} at ${pointer}`);
  return node[keyword] as T;
}

const schemas = '#/components/schemas';
const listItem = `${schemas}/ListPicker/properties/sections/items/properties/items/items/properties`;

/** The limits of the document's requests. */
export const limits = {
  comment: keywordAt(`${schemas}/CloseThreadsRequest/properties/comment`, 'maxLength'),
  attachmentName: keywordAt(`${schemas}/WhatsAppAttachment/properties/name`, 'maxLength'),
  listTitle: keywordAt(`${listItem}/title`, 'maxLength'),
  listSubtitle: keywordAt(`${listItem}/subtitle`, 'maxLength'),
  buttons: keywordAt(`${schemas}/KeyboardButtons`, 'maxItems'),
  urlButtons: keywordAt(`${schemas}/KeyboardButtons/then`, 'maxContains'),
  phoneButtons: keywordAt(`${schemas}/KeyboardButtons/else/then`, 'maxContains'),
  payload: keywordAt(`${schemas}/KeyboardButton/properties/payload`, 'maxLength'),
};
