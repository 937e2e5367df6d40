// The conformance suite's vars for this implementation: its credentials, and for each example value
// of the document (as JSON text) the value of this deployment that plays the same part.
import { API_KEY, API_KEY_NO_BALANCE, CASCADES, EXISTING_SUBSCRIBER, INTEGRATOR_TOKEN } from './server.ts';

const stage = (cascade: number, index: number): string => {
  const uuid = CASCADES.get(cascade)?.[index]?.uuid;
  if (uuid === undefined) throw new Error(`no stage ${index} in cascade ${cascade}`);
  return uuid;
};

export const independentVars = {
  apiKey: API_KEY,
  apiKeyNoBalance: API_KEY_NO_BALANCE,
  integratorToken: INTEGRATOR_TOKEN,
  values: {
    // threads: open, already closed, failing to close
    '101': 5101,
    '102': 5102,
    '103': 5103,
    '104': 5104,
    '201': 5201,
    '202': 5202,
    '301': 5301,
    '302': 5302,
    // cascades: 1001 Viber+SMS, 1002 WhatsApp+Viber+SMS, 1003 SMS, 1004 WhatsApp
    '1001': 7001,
    '1002': 7002,
    '1003': 7003,
    '1004': 7004,
    // stage UUIDs named in the examples
    '"6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c01"': stage(7001, 0),
    '"6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02"': stage(7001, 1),
    '"6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c12"': stage(7002, 1),
    '"6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c13"': stage(7002, 2),
    // delivery outcomes: a malformed number, a text over this implementation's limit (its own values)
    '"12345"': '12345',
    '"https://files.example.invalid/invoice-1234.pdf"': 'https://files.example.invalid/invoice-1234.pdf',
    [JSON.stringify(`Your order ${'0'.repeat(970)} is ready for pickup.`)]:
      `Your order ${'0'.repeat(970)} is ready for pickup.`,
    // the subscriber that exists already
    '"crm-000001"': EXISTING_SUBSCRIBER,
  } as Record<string, unknown>,
};
