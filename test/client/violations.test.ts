import { describe, expect, it } from 'vitest';
import { parseCascadeViolations } from '../../src/client/index.ts';
import { listsViolations } from '../../src/core/error-codes.ts';
import { examplePairs } from '../../src/core/examples.ts';

// The service's published form (7.2 of the description, and the public docs).
const published =
  'Cascade scheduling request is not valid. Violations: Cascade has no stage for the content channel [cascadeTemplateId:12,345;contentChannelType:WHATSAPP]; ' +
  'Content is missing for the cascade stage [cascadeTemplateId:12,345;stageUUID:6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02;channelType:SMS]';

describe('parseCascadeViolations', () => {
  it('reads the published form: both kinds, group separators in numbers, the sentence kept', () => {
    expect(parseCascadeViolations(published)).toEqual([
      {
        kind: 'no-stage-for-content',
        cascadeTemplateId: 12345,
        channel: 'WHATSAPP',
        text: 'Cascade has no stage for the content channel [cascadeTemplateId:12,345;contentChannelType:WHATSAPP]',
      },
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 12345,
        stageId: '6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02',
        channel: 'SMS',
        text: 'Content is missing for the cascade stage [cascadeTemplateId:12,345;stageUUID:6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c02;channelType:SMS]',
      },
    ]);
  });

  it('reads two bracket groups in one segment as two violations, each with its own channel', () => {
    const detail =
      'Not valid. Violations: Content is missing for the cascade stages [cascadeTemplateId:1;stageUUID:u-1;channelType:WHATSAPP] [cascadeTemplateId:1;stageUUID:u-2;channelType:SMS]';
    expect(parseCascadeViolations(detail)).toEqual([
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1,
        stageId: 'u-1',
        channel: 'WHATSAPP',
        text: 'Content is missing for the cascade stages [cascadeTemplateId:1;stageUUID:u-1;channelType:WHATSAPP]',
      },
      {
        kind: 'no-content-for-stage',
        cascadeTemplateId: 1,
        stageId: 'u-2',
        channel: 'SMS',
        text: 'Content is missing for the cascade stages [cascadeTemplateId:1;stageUUID:u-2;channelType:SMS]',
      },
    ]);
  });

  it('accepts newlines as separators, other group separators and lower-case channels', () => {
    const detail =
      'Request is not valid.\nViolations:\nNo stage [cascadeTemplateId:1.001;contentChannelType:sms]\nMissing content [cascadeTemplateId:7 001;stageUUID:u-1;channelType:WhatsApp]';
    expect(parseCascadeViolations(detail).map(({ text: _text, ...v }) => v)).toEqual([
      { kind: 'no-stage-for-content', cascadeTemplateId: 1001, channel: 'SMS' },
      { kind: 'no-content-for-stage', cascadeTemplateId: 7001, stageId: 'u-1', channel: 'WHATSAPP' },
    ]);
  });

  it.each([
    ['other keys', 'Something new [foo:bar]'],
    ['keys of another spelling', 'No stage [cascade_template_id:1;content channel type:SMS]'],
    ['= instead of :', 'No stage [cascadeTemplateId=1;contentChannelType=SMS]'],
    ['a key too many', 'No stage [cascadeTemplateId:1;contentChannelType:SMS;extra:1]'],
    ['a key missing', 'Missing content [cascadeTemplateId:1;stageUUID:u-1]'],
    ['a key twice', 'No stage [cascadeTemplateId:1;cascadeTemplateId:2]'],
    ['no brackets', 'Plain sentence without attributes'],
  ])('keeps %s as unknown, with the text', (_name, text) => {
    expect(
      parseCascadeViolations(`Not valid. Violations: ${text}; No stage [cascadeTemplateId:5;contentChannelType:SMS]`),
    ).toEqual([
      { kind: 'unknown', text },
      {
        kind: 'no-stage-for-content',
        cascadeTemplateId: 5,
        channel: 'SMS',
        text: 'No stage [cascadeTemplateId:5;contentChannelType:SMS]',
      },
    ]);
  });

  it('keeps a non-numeric template id as a string', () => {
    expect(parseCascadeViolations('Violations: x [cascadeTemplateId:abc-1;contentChannelType:SMS]')).toEqual([
      {
        kind: 'no-stage-for-content',
        cascadeTemplateId: 'abc-1',
        channel: 'SMS',
        text: 'x [cascadeTemplateId:abc-1;contentChannelType:SMS]',
      },
    ]);
  });

  it('returns nothing for an empty or missing detail', () => {
    expect(parseCascadeViolations(undefined)).toEqual([]);
    expect(parseCascadeViolations('')).toEqual([]);
  });

  it("reads every violation of the document's own examples", () => {
    const details = examplePairs()
      .map((p) => p.response as { title?: string; detail?: string })
      .filter((r) => listsViolations(r.title ?? ''));
    expect(details.length).toBeGreaterThanOrEqual(3);
    for (const { detail } of details) {
      const violations = parseCascadeViolations(detail);
      expect(violations.length).toBe((detail!.match(/\[/g) ?? []).length);
      expect(violations.every((v) => v.kind !== 'unknown')).toBe(true);
    }
  });
});
