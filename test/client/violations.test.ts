import { describe, expect, it } from 'vitest';
import { parseCascadeViolations } from '../../src/client/index.ts';
import { listsViolations } from '../../src/core/codes.ts';
import { examplePairs } from '../../src/core/examples.ts';

describe('parseCascadeViolations', () => {
  it('reads both kinds, several in one detail, with group separators in numbers', () => {
    const detail =
      'Cascade scheduling request is not valid. Violations: Cascade has no stage for the content channel [cascadeTemplateId:12,345;contentChannelType:WHATSAPP]; ' +
      'Content is missing for the cascade stage [cascadeTemplateId:12,345;stageUUID:aaaa-1;channelType:SMS]; ' +
      'Content is missing for the cascade stage [cascadeTemplateId:12 345;stageUUID:aaaa-2;channelType:viber]';
    expect(parseCascadeViolations(detail)).toEqual([
      { kind: 'no-stage-for-content', cascadeTemplateId: 12345, channel: 'WHATSAPP' },
      { kind: 'no-content-for-stage', cascadeTemplateId: 12345, stageId: 'aaaa-1', channel: 'SMS' },
      { kind: 'no-content-for-stage', cascadeTemplateId: 12345, stageId: 'aaaa-2', channel: 'VIBER' },
    ]);
  });

  it('accepts newlines as separators, other key spellings and = for :', () => {
    const detail = 'Request is not valid.\nViolations:\nNo stage [cascade_template_id=1.001; content channel type=SMS]\nMissing content [cascadeTemplateId:7;stage uuid:u-1;channel:WHATSAPP]';
    expect(parseCascadeViolations(detail)).toEqual([
      { kind: 'no-stage-for-content', cascadeTemplateId: 1001, channel: 'SMS' },
      { kind: 'no-content-for-stage', cascadeTemplateId: 7, stageId: 'u-1', channel: 'WHATSAPP' },
    ]);
  });

  it('keeps what it cannot read as unknown, with the raw text', () => {
    const detail = 'Not valid. Violations: Something new happened [foo:bar]; Plain sentence without attributes; Cascade has no stage [cascadeTemplateId:5;contentChannelType:SMS]';
    expect(parseCascadeViolations(detail)).toEqual([
      { kind: 'unknown', text: 'Something new happened [foo:bar]' },
      { kind: 'unknown', text: 'Plain sentence without attributes' },
      { kind: 'no-stage-for-content', cascadeTemplateId: 5, channel: 'SMS' },
    ]);
  });

  it('keeps a non-numeric template id as a string', () => {
    expect(parseCascadeViolations('Violations: x [cascadeTemplateId:abc-1;contentChannelType:SMS]')).toEqual([
      { kind: 'no-stage-for-content', cascadeTemplateId: 'abc-1', channel: 'SMS' },
    ]);
  });

  it('returns nothing for an empty or missing detail', () => {
    expect(parseCascadeViolations(undefined)).toEqual([]);
    expect(parseCascadeViolations('')).toEqual([]);
  });

  it('reads every violation of the document\'s own examples', () => {
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
