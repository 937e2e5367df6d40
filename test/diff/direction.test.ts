// The gate judges each change by who reads the place it changes, with a pair of documents per
// direction: the frozen copy in test/fixtures and a copy of it with one change. `found` says which opinion saw it: the
// structural diff (api-smart-diff on the wire view, directions in src/diff/direction.ts), a witness
// instance (src/diff/witnesses.ts), or both.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { type Change, compareDocuments } from '../../src/diff/compare.ts';

const doc = JSON.parse(readFileSync(join(projectRoot, 'test/fixtures/frozen-openapi.json'), 'utf8'));
const schemas = (d: any) => d.components.schemas;
const payload = '#/webhooks/messageStatus/post/requestBody/content/application~1json/schema';
const closeRequest = '#/paths/~1api~1v1~1threads~1close/post/requestBody/content/application~1json/schema';
const scheduleRequest = '#/paths/~1api~1cascade~1schedule/post/requestBody/content/application~1json/schema';

/** The changes, annotations left out, from `base` (default: the document) to it changed by `change`. */
const compared = (change: (d: any) => void, base: any = doc) => {
  const after = structuredClone(base);
  change(after);
  return compareDocuments(structuredClone(base), after).filter((c) => c.class !== 'annotation');
};
const shown = (changes: Change[]) => changes.map((c) => [c.class, c.found, c.sentence]);

describe('each change judged by who reads it', () => {
  it('a response header made required breaks no client; no longer required, it breaks clients that read it', () => {
    // The document's Allow header is required.
    const optional = structuredClone(doc);
    delete optional.components.headers.Allow.required;
    const makeRequired = (d: any) => {
      d.components.headers.Allow.required = true;
    };
    expect(shown(compared(makeRequired, optional))).toEqual([
      [
        'non-breaking',
        'structure',
        'header Allow of response 405 of closeThreads: the header: required true added (also header Allow of response 405 of createSubscriber, header Allow of response 405 of scheduleCascade)',
      ],
    ]);
    expect(shown(compared((d) => delete d.components.headers.Allow.required)).map(([c]) => c)).toEqual(['breaking']);
  });

  it('a request tightened breaks callers; loosened, it breaks nobody', () => {
    expect(
      shown(
        compared((d) => {
          schemas(d).CloseThreadsRequest.properties.comment.maxLength = 299;
        }),
      ),
    ).toEqual([['breaking', 'both', 'request body of closeThreads: `comment`: maxLength 300 -> 299']]);
    expect(
      shown(
        compared((d) => {
          schemas(d).CloseThreadsRequest.properties.comment.maxLength = 301;
        }),
      ),
    ).toEqual([['non-breaking', 'structure', 'request body of closeThreads: `comment`: maxLength 300 -> 301']]);
  });

  it('a payload type widened and a response field no longer promised break their readers; a response tightened does not', () => {
    const typed = compared((d) => {
      schemas(d).StatusCallback.properties.subjectId.type = ['integer', 'string'];
    });
    expect(shown(typed)).toEqual([
      ['breaking', 'structure', 'callback messageStatus: `subjectId`: type "integer" -> ["integer","string"]'],
    ]);
    const required = schemas(doc).CascadeScheduleResult.required as string[];
    expect(required.length).toBeGreaterThan(0);
    expect(
      shown(
        compared((d) => {
          schemas(d).CascadeScheduleResult.required = required.slice(1);
        }),
      ).map((c) => c[0]),
    ).toEqual(['breaking']);
    // RequestId is sent by callers and echoed by the service: tightened, it breaks only the callers.
    const limited = compared((d) => {
      schemas(d).RequestId.maxLength = 200;
    }).map((c) => [c.class, c.sentence]);
    expect(limited).toContainEqual([
      'non-breaking',
      'response 200 of scheduleCascade: `requestId`: maxLength 200 added (also callback messageStatus)',
    ]);
    expect(limited).toContainEqual(['breaking', 'request body of scheduleCascade: `requestId`: maxLength 200 added']);
  });

  it('a webhook payload is read by receivers: a field no longer promised breaks them, one newly promised does not', () => {
    const dropped = compared((d) => {
      schemas(d).StatusCallback.required = schemas(d).StatusCallback.required.filter((x: string) => x !== 'statusAt');
    });
    expect(shown(dropped)).toEqual([
      ['breaking', 'structure', 'callback messageStatus: `statusAt` is no longer required'],
    ]);
    // Reported where it reaches the wire: the webhook, not the component.
    expect(dropped[0]!.pointer).toBe(`${payload}/required/2`);
    expect(shown(compared((d) => void schemas(d).StatusCallback.required.push('subject')))).toEqual([
      ['non-breaking', 'structure', 'callback messageStatus: `subject` became required'],
    ]);
    // `null` no longer sent, and a limit on the text: the receivers get less than they were built for.
    expect(
      shown(
        compared((d) => {
          schemas(d).StatusCallback.properties.comment = { type: 'string', maxLength: 10 };
        }),
      ),
    ).toEqual([
      ['non-breaking', 'structure', 'callback messageStatus: `comment`: type ["string","null"] -> "string"'],
      ['non-breaking', 'structure', 'callback messageStatus: `comment`: maxLength 10 added'],
    ]);
  });

  it("the receiver's answer to a webhook is read by the service: an answer status no longer accepted breaks receivers", () => {
    const answers = compared((d) => {
      d.webhooks.messageStatus.post.responses = { '204': { description: 'Accepted.' } };
    });
    expect(shown(answers)).toEqual([
      ['breaking', 'structure', 'answer 200 to callback messageStatus: removed'],
      ['non-breaking', 'structure', 'answer 204 to callback messageStatus: added'],
    ]);
    expect(answers[0]!.pointer).toBe('#/webhooks/messageStatus/post/responses/200');
  });

  it('a schema used both ways is judged in each place', () => {
    // ThreadId is in the request's threadIds and in the four lists of the answer.
    const int32 = compared((d) => {
      schemas(d).ThreadId.maximum = 2147483647;
    });
    const places = (changes: Change[]) => [...new Set(changes.map((c) => `${c.class} ${c.sentence.split(':')[0]}`))];
    expect(int32).toHaveLength(5); // threadIds[] and each of the four lists
    expect(places(int32)).toEqual([
      'breaking request body of closeThreads',
      'non-breaking response 200 of closeThreads',
    ]);
    const anyFormat = compared((d) => void delete schemas(d).ThreadId.format);
    expect(places(anyFormat)).toEqual([
      'breaking response 200 of closeThreads',
      'non-breaking request body of closeThreads',
    ]);
    expect(anyFormat[0]!.sentence).toContain('`resolved_threads[]`: format "int64" removed');
  });

  it('a webhook removed is breaking and named (its answers go with it, its schemas are not reported apart)', () => {
    const removed = compareDocuments(
      structuredClone(doc),
      (({ webhooks: _, ...rest }) => rest)(structuredClone(doc)),
    ).filter((c) => c.class !== 'annotation');
    expect(shown(removed)).toEqual([['breaking', 'structure', 'callback messageStatus: removed']]);
    expect(removed[0]!.pointer).toBe('#/webhooks/messageStatus/post');
  });

  it('a limit inside if/then tightened (URL buttons 2 -> 1) is caught by a witness the structural diff misses', () => {
    const after = structuredClone(doc);
    after.components.schemas.KeyboardButtons.then.maxContains = 1;
    const all = compareDocuments(structuredClone(doc), after);
    // The structural diff sees an annotation only.
    expect(all.filter((c) => c.found !== 'witness').map((c) => c.class)).toEqual(['annotation']);
    const witness = all.filter((c) => c.found === 'witness');
    expect(witness.map((c) => [c.class, c.pointer])).toEqual([['breaking', scheduleRequest]]);
    expect(witness[0]!.sentence).toMatch(
      /^request body of scheduleCascade: `content\.whatsappContent\.keyboard\.rows\[\]\.buttons`: maxContains of the document refuses the witness example \w+ of the base \(.*no more than 1 valid item/,
    );
  });

  it('a witness at the edge sees a limit the examples do not reach, and the structural diff confirms it', () => {
    // No example sends a comment of 300 characters: the value at the limit does.
    const tightened = compared((d) => {
      schemas(d).CloseThreadsRequest.properties.comment.maxLength = 299;
    });
    expect(tightened.map((c) => c.found)).toEqual(['both']);
    expect(tightened[0]!.pointer).toBe(`${closeRequest}/properties/comment/maxLength`);
  });

  it('an open set widened (a new error code, a new delivery status) breaks nobody', () => {
    const codes = compared((d) => void schemas(d).KnownErrorCode.enum.push('rate-limited'));
    expect(codes.map((c) => c.class)).toEqual(['non-breaking']);
    const statuses = compared((d) => void schemas(d).KnownDeliveryStatus.enum.push('QUEUED_AGAIN'));
    expect(shown(statuses)).toEqual([
      ['non-breaking', 'structure', 'callback messageStatus: `status`: value "QUEUED_AGAIN" added'],
    ]);
  });

  it("an open set's own member is judged as any schema: its pattern removed from a payload breaks receivers", () => {
    const loosened = compared((d) => {
      delete schemas(d).DeliveryStatus.anyOf[1].pattern;
    });
    expect(shown(loosened)).toEqual([
      ['breaking', 'structure', 'callback messageStatus: `status`: pattern "^[A-Z][A-Z_]*$" removed'],
    ]);
  });

  it('a request body no longer required, or an integer become a number in a request, breaks nobody', () => {
    expect(
      shown(
        compared((d) => {
          d.paths['/api/v1/threads/close'].post.requestBody.required = false;
        }),
      ).map((c) => c[0]),
    ).toEqual(['non-breaking']);
    const widened = compared((d) => {
      schemas(d).CloseThreadsRequest.properties.threadIds.items = { type: 'number' };
    });
    expect(widened.filter((c) => c.sentence.includes('type')).map((c) => [c.class, c.sentence])).toEqual([
      ['non-breaking', 'request body of closeThreads: `threadIds[]`: type "integer" -> "number"'],
    ]);
  });

  it("a webhook's own keys are seen; a media type the service may now send it in breaks receivers", () => {
    const deprecated = compared((d) => {
      d.webhooks.messageStatus.post.deprecated = true;
    });
    expect(shown(deprecated)).toEqual([
      ['deprecation', 'structure', 'callback messageStatus: the payload: deprecated true added'],
    ]);
    const xml = compared((d) => {
      d.webhooks.messageStatus.post.requestBody.content['application/xml'] = { schema: { type: 'string' } };
    });
    expect(xml.map((c) => c.class)).toEqual(['breaking']);
    // A body documented for the receiver's answer is one the service reads: receivers that send none break.
    const answered = compared((d) => {
      d.webhooks.messageStatus.post.responses['200'].content = {
        'application/json': { schema: { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' } } } },
      };
    });
    expect(answered.map((c) => c.class)).toContain('breaking');
  });

  it('two changes to one field are two lines', () => {
    const both = compared((d) => {
      const comment = schemas(d).CloseThreadsRequest.properties.comment;
      comment.minLength = 3;
      comment.pattern = '^[a-z]';
    });
    expect(both.map((c) => c.sentence)).toEqual([
      'request body of closeThreads: `comment`: minLength 3 added',
      'request body of closeThreads: `comment`: pattern "^[a-z]" added',
    ]);
  });

  it('no change: nothing', () => {
    expect(compareDocuments(doc, structuredClone(doc))).toEqual([]);
  });
});
