// Each class of change this document can undergo, as a pair of documents (the frozen copy in
// test/fixtures and a copy of it with one change), with the classification and the sentence a person reads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.ts';
import { compareDocuments, type ChangeClass } from '../../src/diff/compare.ts';

const doc = JSON.parse(readFileSync(join(projectRoot, 'test/fixtures/frozen-openapi.json'), 'utf8'));
const schemas = (d: any) => d.components.schemas;

const fixtures: Array<[name: string, change: (d: any) => void, expected: Array<[ChangeClass, string]>]> = [
  [
    'a response field removed',
    (d) => {
      delete schemas(d).ThreadsCloseResult.properties.resolved_threads;
      schemas(d).ThreadsCloseResult.required = schemas(d).ThreadsCloseResult.required.filter(
        (x: string) => x !== 'resolved_threads',
      );
    },
    [
      ['breaking', 'response 200 of closeThreads: `resolved_threads` is no longer required'],
      ['breaking', 'response 200 of closeThreads: property `resolved_threads` removed'],
    ],
  ],
  [
    'a request type narrowed',
    (d) => {
      schemas(d).ParameterValue.properties.value.type = 'integer';
    },
    [['breaking', 'request body of createSubscriber: `parameterValues[].value`: type "string" -> "integer"']],
  ],
  [
    'a limit lowered',
    (d) => {
      schemas(d).CloseThreadsRequest.properties.comment.maxLength = 200;
    },
    [['breaking', 'request body of closeThreads: `comment`: maxLength 300 -> 200']],
  ],
  [
    'a limit raised',
    (d) => {
      schemas(d).CloseThreadsRequest.properties.comment.maxLength = 400;
    },
    [['non-breaking', 'request body of closeThreads: `comment`: maxLength 300 -> 400']],
  ],
  [
    'an enum value added to a request (a closed set)',
    (d) => {
      schemas(d).AddressType.enum.push('FAX');
    },
    [
      ['non-breaking', 'request body of createSubscriber: `addresses[].type`: value "FAX" added'],
      ['non-breaking', 'request body of scheduleCascade: `subscriberFilter.type`: value "FAX" added'],
    ],
  ],
  [
    'an enum value removed from a request (a closed set)',
    (d) => {
      schemas(d).AddressType.enum = schemas(d).AddressType.enum.filter((v: string) => v !== 'UTM');
    },
    [
      ['breaking', 'request body of createSubscriber: `addresses[].type`: value "UTM" removed'],
      ['breaking', 'request body of scheduleCascade: `subscriberFilter.type`: value "UTM" removed'],
    ],
  ],
  [
    'a new error code: a value added to an open set in every response',
    (d) => {
      schemas(d).KnownErrorCode.enum.push('rate-limited');
    },
    [
      [
        'non-breaking',
        expect.stringMatching(
          /^response 400 of closeThreads: `title`: value "rate-limited" added \(also .*response default of scheduleCascade\)$/,
        ) as unknown as string,
      ],
    ],
  ],
  [
    'a value added to a closed set in a response',
    (d) => {
      schemas(d).CascadeScheduleResult.properties.state = { type: 'string', enum: ['QUEUED', 'SENT'] };
    },
    [['non-breaking', 'response 200 of scheduleCascade: property `state` added']],
  ],
  [
    'a new optional response field',
    (d) => {
      schemas(d).CascadeScheduleResult.properties.queuedAt = { type: 'string' };
    },
    [['non-breaking', 'response 200 of scheduleCascade: property `queuedAt` added']],
  ],
  [
    'a documented status removed',
    (d) => {
      delete d.paths['/api/cascade/schedule'].post.responses['405'];
    },
    [['breaking', 'response 405 of scheduleCascade: removed']],
  ],
  [
    'a path removed',
    (d) => {
      delete d.paths['/api/subscribers/create'];
    },
    [['breaking', 'operation of createSubscriber: removed']],
  ],
  [
    'a requirement added to a request',
    (d) => {
      schemas(d).CloseThreadsRequest.required.push('comment');
    },
    [['breaking', 'request body of closeThreads: `comment` became required']],
  ],
  [
    'a description changed',
    (d) => {
      schemas(d).CloseThreadsRequest.description = 'Threads to close.';
    },
    [
      [
        'annotation',
        expect.stringMatching(
          /^request body of closeThreads: the body: description ".*" -> "Threads to close\."$/,
        ) as unknown as string,
      ],
    ],
  ],
];

describe('classification of each kind of change', () => {
  it.each(fixtures)('%s', (_name, change, expected) => {
    const after = structuredClone(doc);
    change(after);
    const before = structuredClone(doc);
    expect(compareDocuments(before, after).map((c) => [c.class, c.sentence])).toEqual(expected);
    expect(before).toEqual(doc); // the inputs are left as they were
  });

  it('a value added to a closed set in a response breaks clients', () => {
    const before = structuredClone(doc);
    schemas(before).CascadeScheduleResult.properties.state = { type: 'string', enum: ['QUEUED'] };
    const after = structuredClone(before);
    schemas(after).CascadeScheduleResult.properties.state.enum.push('SENT');
    expect(compareDocuments(before, after).map((c) => c.class)).toEqual(['breaking']);
  });

  it('the document against itself: no change', () => {
    expect(compareDocuments(doc, structuredClone(doc))).toEqual([]);
  });
});
