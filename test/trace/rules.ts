// Every rule /work/shared/service-interface.md states, each with what exercises it: "no sentence without its check".
// A rule is one fact; where sections state the same fact, one entry names them all. Section 1 only summarises
// sections 2 to 8: its sentences are here under the section that states each; 2.4's list of property names the error
// list refers to is in the entries of those errors. test/trace.test.ts holds the names to the suite (its planned
// checks, the registry) and the mutation lists.
//
// checks: a registry id (judge.ts `registered()`), or `<stage>: <text>` that the name of a planned check contains.
// breaks: breaks of test/conformance/mutations.ts `mutations` or callbacks.ts `breaks` that a listed check fails on
// (the default profile, as the mutation test runs), read from a run of each break, not guessed.

export interface Rule {
  id: string;
  /** The sections that state it. */
  section: string;
  /** The description's words, as written. */
  words: string;
  checks?: string[];
  breaks?: string[];
  /** A check exists, no break of the mutation lists proves it: `breaks` is empty and `idea` names a break to add. */
  missingBreak?: true;
  /** Observable from outside, no check yet: `idea` says what the check would do. */
  missingCheck?: true;
  /** Every check named is a decision of this contract: it runs under --profile strict only, never in the mutation test. */
  strictOnly?: true;
  idea?: string;
  /** Why the suite cannot see it from outside the service. */
  unobservable?: string;
  /** The x-open-points id, or "not shown": the description leaves it open. `checks` then accept each answer. */
  open?: string;
}

export const rules: Rule[] = [
  // 2.1 Thread
  {
    id: 'thread-id-long',
    section: '2.1',
    words:
      'thread identifier | long (integer) | Internal identifier of a thread. It is passed in `threadIds` and returned in the four result lists.',
    checks: [
      'schema',
      'examples: closeThreads 200 mixed',
      'boundaries: closeThreads: at the limit, threadIds.0: 2^31',
      'boundaries: closeThreads: at the limit, threadIds.0: 2^53 + 1',
      'boundaries: closeThreads: at the limit, threadIds.0: -(2^53 + 1)',
    ],
    breaks: [
      'int64 thread ids written as strings',
      'int32 ids: a thread id past 2^31 answered 500',
      'a negative id past -2^53 answered 500 (read as a double)',
    ],
  },
  { id: 'thread-fields', section: '2.1', words: 'Thread fields beyond the identifier: not shown.', open: 'not shown' },

  // 2.2 Subscriber
  {
    id: 'subscriber-blacklisted-boolean',
    section: '2.2, 3.3',
    words: 'blacklisted | boolean; "The blacklisted flag has two values (true, false)."',
    checks: [
      'examples: createSubscriber 200 createdBlacklisted',
      'generated: createSubscriber: 25 generated valid requests are accepted',
      'boundaries: createSubscriber: broken, blacklisted: wrong type',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a blacklisted subscriber (true) refused, or blacklisted "yes" (a string) accepted',
  },
  {
    id: 'subscriber-blacklisted-meaning',
    section: '2.2',
    words: 'true: excluded from mailings and cannot receive them. false: may receive mailings.',
    unobservable: 'mailings are no operation of this interface: no call shows who receives one',
  },
  {
    id: 'subscriber-addresses-array',
    section: '2.2',
    words: 'addresses | array of objects | Addresses or identifiers of the subscriber.',
    checks: [
      'boundaries: createSubscriber: broken, addresses.0: wrong type',
      'boundaries: createSubscriber: broken, addresses: wrong type',
    ],
    breaks: ['a subscriber without an EXT_USER_ID address accepted'],
  },
  {
    id: 'subscriber-address-string',
    section: '2.2',
    words: 'addresses[].address | string | Unique identifier of the subscriber, such as a phone number, ...',
    checks: [
      'boundaries: createSubscriber: broken, addresses.0.address: wrong type',
      'boundaries: createSubscriber: broken, addresses.0.address: missing',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'an address given as a number accepted',
  },
  {
    id: 'subscriber-ext-user-id-unique',
    section: '2.2, 4.2',
    words:
      'addresses[].address: "Unique identifier of the subscriber"; 4.2: "A subscriber is created whose external identifier is the address of type EXT_USER_ID."',
    checks: [
      'stateful: createSubscriber: the same addresses[type=EXT_USER_ID].address sent twice is refused the second time',
      'stateful: createSubscriber: the same addresses[type=EXT_USER_ID].address in 5 requests sent at once is accepted once',
      'stateful: createSubscriber: a addresses[type=EXT_USER_ID].address used earlier is still refused after other requests',
    ],
    breaks: ['a second subscriber with the same external identifier accepted'],
  },
  {
    id: 'subscriber-other-addresses-unique',
    section: '2.2',
    words: 'addresses[].address | string | Unique identifier of the subscriber (which of several addresses is unique)',
    open: 'unique-addresses',
    checks: [
      'stateful: createSubscriber: a request sharing every value but addresses[type=EXT_USER_ID].address with an accepted one is accepted',
    ],
  },
  {
    id: 'subscriber-address-kept',
    section: '2.2',
    words: 'It is needed later to update and delete the subscriber, so it must be kept by the caller.',
    unobservable: 'a duty of the caller; the update and delete methods that need it are not shown (4.2)',
  },
  {
    id: 'subscriber-address-type-values',
    section: '2.2',
    words:
      'addresses[].type | string (upper case) | Kind of identifier; "Allowed values of addresses[].type": INSTAGRAM_ID ... EXT_USER_ID (12 values)',
    checks: [
      'boundaries: createSubscriber: broken, addresses.0.type: not one of the values',
      'boundaries: createSubscriber: broken, addresses.0.type: wrong type',
    ],
    // It accepts a request whose only address has a type outside the set (so no EXT_USER_ID either).
    breaks: ['a subscriber without an EXT_USER_ID address accepted'],
  },
  {
    id: 'subscriber-address-type-each-accepted',
    section: '2.2',
    words: 'Allowed values of `addresses[].type`: INSTAGRAM_ID, FACEBOOK_ID, DEVICE_APP_ID, PHONE, EMAIL, UTM, ...',
    missingCheck: true,
    idea: 'create a subscriber with an address of each of the 12 types besides its EXT_USER_ID: accepted (the examples use EXT_USER_ID, PHONE and EMAIL only)',
  },
  {
    id: 'subscriber-ext-user-id-given',
    section: '2.2',
    words: 'For the create method an identifier of type EXT_USER_ID is to be given.',
    checks: [
      'boundaries: createSubscriber: past the limit, addresses: 0 of type EXT_USER_ID',
      'boundaries: createSubscriber: broken, addresses: empty list',
    ],
    breaks: ['a subscriber without an EXT_USER_ID address accepted'],
  },
  {
    id: 'address-type-asterisk',
    section: '2.2',
    words: 'INSTAGRAM_ID and FACEBOOK_ID are marked with an asterisk; the meaning of the mark: not shown.',
    open: 'not shown',
  },
  {
    id: 'subscriber-parameter-values-array',
    section: '2.2',
    words: 'parameterValues | array of objects | Parameters of the subscriber.',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0: wrong type',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'parameterValues given as an object accepted',
  },
  {
    id: 'subscriber-parameter-name-string',
    section: '2.2',
    words: 'parameterValues[].name | string | Name of the parameter.',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.0.name: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0.name: missing',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'a parameter without its name accepted',
  },
  {
    id: 'subscriber-parameter-value-type',
    section: '2.2',
    words: 'parameterValues[].valueType | string | One of STRING, ENUM, DATE.',
    checks: [
      'examples: createSubscriber 200 created',
      'boundaries: createSubscriber: broken, parameterValues.0.valueType: not one of the values',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a valueType outside STRING, ENUM, DATE accepted (or one of them refused)',
  },
  {
    id: 'subscriber-parameter-value-string',
    section: '2.2',
    words: 'parameterValues[].value | string | Value.',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.0.value: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0.value: missing',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'a parameter value given as a number accepted',
  },
  {
    id: 'subscriber-parameter-date',
    section: '2.2',
    words: 'For DATE the format is year-month-day (YYYY-MM-DD).',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.2.value: bad date',
      'boundaries: createSubscriber: past the limit, parameterValues.2.value: a day no month has',
      'boundaries: createSubscriber: at the limit, parameterValues.2.value: a leap day',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a DATE value written 17.05.1990 accepted, or a leap day refused',
  },
  {
    id: 'subscriber-parameter-enum',
    section: '2.2',
    words: 'For ENUM it is one of the enumerated values of that parameter.',
    checks: ['examples: createSubscriber 400 parameterValueNotInEnum'],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: "an ENUM value outside the parameter's values accepted",
  },
  {
    id: 'subscriber-tag-values-array',
    section: '2.2',
    words: 'tagValues | array of objects | Tags of the subscriber.',
    checks: [
      'boundaries: createSubscriber: broken, tagValues: wrong type',
      'boundaries: createSubscriber: broken, tagValues.0: wrong type',
      'boundaries: createSubscriber: broken, tagValues.0.name: wrong type',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'tagValues given as a list of strings accepted',
  },
  {
    id: 'subscriber-tag-created-beforehand',
    section: '2.2',
    words: 'tagValues[].name | string | Name of a tag that was created beforehand.',
    checks: ['examples: createSubscriber 400 tagNotFound'],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'a tag that was never created accepted',
  },
  {
    id: 'subscriber-record',
    section: '2.2, 4.2',
    words: 'Subscriber record as returned by the service: not shown. Body of the success response: not shown.',
    open: 'created-body',
    checks: ['body', 'schema'],
  },

  // 2.3 Cascade, 2.4 the scheduling request
  {
    id: 'cascade-id-integer',
    section: '2.3, 2.4',
    words: 'A cascade has a numeric identifier (`cascadeId`); cascadeId | integer | Identifier of an existing cascade.',
    checks: [
      'boundaries: scheduleCascade: at the limit, cascadeId: 2^31',
      'boundaries: scheduleCascade: at the limit, cascadeId: 2^53 + 1',
      'boundaries: scheduleCascade: broken, cascadeId: wrong type',
    ],
    breaks: ['int32 ids: a cascade id past 2^31 answered 500'],
  },
  {
    id: 'cascade-stage-order',
    section: '1, 2.3',
    words:
      'A cascade has ... an ordered list of stages (1: "an ordered set of channel stages (for example Viber then WhatsApp or SMS)")',
    unobservable:
      'which stage a message went out on, and in which order they were tried, is in nothing the description shows (the callback payload is not shown)',
  },
  {
    id: 'cascade-channel-types',
    section: '2.3',
    words:
      'Each stage has a stage identifier (UUID-like string) and a channel type. Channel types seen: VIBER, WHATSAPP, SMS.',
    checks: [
      'examples: scheduleCascade 200 scheduled',
      'examples: scheduleCascade 200 scheduledWhatsAppTemplate',
      'violations',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a cascade of a WHATSAPP stage refuses whatsappContent as a channel it has no stage for',
  },
  {
    id: 'cascade-fields',
    section: '2.3',
    words: "Cascade fields beyond the identifier and the stages' channel types: not shown.",
    open: 'not shown',
  },
  {
    id: 'request-id-uuid-like',
    section: '2.4',
    words: 'requestId | string (UUID-like)',
    checks: [
      'boundaries: scheduleCascade: at the limit, requestId: a UUID in upper case',
      'generated: scheduleCascade: 25 generated valid requests are accepted',
    ],
    breaks: ['an upper-case UUID requestId refused'],
  },
  {
    id: 'request-id-not-uuid',
    section: '2.4',
    words: 'requestId | string (UUID-like) (whether a string that is no UUID is accepted)',
    open: 'request-id-form',
    checks: ['boundaries: scheduleCascade: at the limit, requestId: a string that is no UUID'],
  },
  {
    id: 'request-id-unique',
    section: '2.4, 7.2, 8',
    words:
      'Must be unique per request; reuse gives error `requestId-is-not-unique`. | 400 | requestId-is-not-unique | `requestId` was used before. | requestId | Cascade scheduling | unique per request',
    checks: [
      'taken-once',
      'examples: scheduleCascade 400 requestIdNotUnique',
      'stateful: scheduleCascade: the same requestId sent twice is refused the second time',
      'stateful: scheduleCascade: the same requestId in 5 requests sent at once is accepted once',
      'stateful: scheduleCascade: a requestId used earlier is still refused after other requests',
    ],
    breaks: [
      'a reused requestId accepted',
      'a requestId forgotten after other requests',
      'a requestId accepted twice when sent at once (checked, then stored)',
    ],
  },
  {
    id: 'subscriber-filter',
    section: '2.4',
    words:
      'subscriberFilter | object | Selects the recipient. subscriberFilter.address | string | Address of the recipient. subscriberFilter.type | string | Address type (for example PHONE).',
    checks: [
      'boundaries: scheduleCascade: broken, subscriberFilter: missing',
      'boundaries: scheduleCascade: broken, subscriberFilter: wrong type',
      'boundaries: scheduleCascade: broken, subscriberFilter.address: wrong type',
      'boundaries: scheduleCascade: broken, subscriberFilter.type: not one of the values',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a schedule without subscriberFilter (or with its address a number) accepted',
  },
  {
    id: 'content-object',
    section: '2.4',
    words: 'content | object | Per-channel content, one entry for each stage channel of the cascade.',
    checks: [
      'boundaries: scheduleCascade: broken, content: missing',
      'boundaries: scheduleCascade: broken, content: empty object',
      'boundaries: scheduleCascade: broken, content: wrong type',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'content-channel-objects',
    section: '2.4',
    words:
      'content.viberContent | object | Content for the Viber channel. content.smsContent | object | Content for the SMS channel.',
    checks: [
      'boundaries: scheduleCascade: broken, content.viberContent: wrong type',
      'boundaries: scheduleCascade: broken, content.smsContent: wrong type',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'smsContent given as a string accepted',
  },
  {
    id: 'content-type-image',
    section: '2.4',
    words: 'content.<channel>.contentType | string | For example TEXT (also image).',
    missingCheck: true,
    idea: 'schedule Viber content of type IMAGE (its fields from the public docs): accepted; every example sends TEXT or a WhatsApp DOCUMENT',
  },

  // 3.1 Thread states (and the meaning of the four lists of 4.1)
  {
    id: 'thread-open-closed',
    section: '3.1, 4.1',
    words:
      'open | Close threads call | Closing succeeds | closed | Identifier goes into `resolved_threads`. (resolved_threads | Threads closed by this call.)',
    checks: [
      'examples: closeThreads 200 resolved',
      'stateful: closeThreads: the same threadIds sent again, each identifier is where the document says',
    ],
    // The thread it closed is open again at the next call.
    breaks: ['a closed thread reported as resolved again'],
  },
  {
    id: 'thread-open-system-error',
    section: '3.1, 4.1',
    words:
      'open | Close threads call | System error during closing | open | Identifier goes into `not_resolved_due_to_system_error`.',
    checks: [
      'examples: closeThreads 200 notResolvedDueToSystemError',
      'stateful: closeThreads: the same threadIds sent again, each identifier is where the document says',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'the break "a thread whose closing failed closed anyway (reported as already closed next time)" is listed, but no check failed on it in a run of the whole suite',
  },
  {
    id: 'thread-closed-already',
    section: '3.1, 4.1',
    words:
      'closed | Close threads call | Thread already closed at call time | closed | Identifier goes into `already_resolved_threads`.',
    checks: [
      'examples: closeThreads 200 alreadyResolved',
      'stateful: closeThreads: the same threadIds sent again, each identifier is where the document says',
    ],
    breaks: ['a closed thread reported as resolved again'],
  },
  {
    id: 'thread-no-such',
    section: '3.1, 4.1',
    words:
      '(no such thread) | Close threads call | Identifier matches no thread | none | Identifier goes into `not_existing_threads`. The call still succeeds.',
    checks: ['examples: closeThreads 200 notExisting', 'examples: closeThreads 200 mixed'],
    breaks: [],
    missingBreak: true,
    idea: 'an identifier that matches no thread answered 400, or listed in resolved_threads',
  },
  {
    id: 'thread-reopen',
    section: '3.1',
    words: 'Transitions that reopen a thread: not shown.',
    open: 'not shown',
    checks: ['sent-again'],
  },

  // 3.2, 3.3
  {
    id: 'delivery-undelivered',
    section: '3.2',
    words: 'The status UNDELIVERED exists, reported on the status callback.',
    checks: [
      'callback-schema',
      'callbacks: every callback is a status callback as the document writes it',
      'callbacks: is reported as duplicated',
    ],
    breaks: [
      'a status in lower case',
      'UNDELIVERED reported without its error code',
      'a delivery error code under another status',
    ],
  },
  {
    id: 'delivery-other-states',
    section: '3.2',
    words: 'Other delivery states and all transitions: not shown.',
    open: 'statuses-reported',
    checks: ['callbacks: every callback reports a result'],
  },
  { id: 'subscriber-transitions', section: '3.3', words: 'Transitions: not shown.', open: 'not shown' },

  // 4.1 Close threads
  {
    id: 'close-path',
    section: '4.1, 9',
    words:
      'Method and path: `POST {base_url}/api/v1/threads/close`; 9: "The close-threads path carries a version segment (`v1`)."',
    checks: ['dredd: /api/v1/threads/close > Close threads > 200', 'examples: closeThreads 200 resolved'],
    breaks: [],
    missingBreak: true,
    idea: 'close threads served without the v1 segment (/api/threads/close) only',
  },
  {
    id: 'close-credential',
    section: '4.1, 5',
    words: 'Required permission: INTEGRATOR. | Close threads | Permission INTEGRATOR is required.',
    checks: ['bad-input: closeThreads: a valid request without its integratorToken credential'],
    breaks: ['a request without credentials accepted'],
  },
  {
    id: 'close-permission-integrator',
    section: '4.1, 5',
    words: 'Required permission: INTEGRATOR.',
    missingCheck: true,
    idea: 'with the token of a user without INTEGRATOR (a deployment value), close threads is refused; the suite only leaves the token out',
  },
  {
    id: 'close-content-type',
    section: '4.1',
    words: 'Request header: `Content-Type: application/json`.',
    checks: [
      'bad-input: closeThreads: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: closeThreads: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'close-thread-ids-required',
    section: '4.1',
    words: 'threadIds | array of long | yes | Identifiers of the threads to close.',
    checks: [
      'boundaries: closeThreads: broken, threadIds: missing',
      'boundaries: closeThreads: broken, threadIds: wrong type',
      'boundaries: closeThreads: broken, threadIds.0: wrong type',
    ],
    breaks: [],
    missingBreak: true,
    strictOnly: true,
    idea: 'a close threads call without threadIds answered 200 with four empty lists',
  },
  {
    id: 'close-comment-optional',
    section: '4.1',
    words: 'comment | string | no | Reason for closing.',
    checks: ['examples: closeThreads 200 notExisting', 'boundaries: closeThreads: broken, comment: wrong type'],
    breaks: [],
    missingBreak: true,
    idea: 'a close threads call without a comment refused',
  },
  {
    id: 'close-comment-applied',
    section: '1, 4.1',
    words: 'Applied to all threads closed by this call.',
    unobservable: "thread fields beyond the identifier are not shown: no call reads a thread's comment",
  },
  {
    id: 'close-response-json',
    section: '4.1',
    words: 'Response: HTTP 200, `Content-Type: application/json`.',
    checks: [
      'content-type',
      'dredd: /api/v1/threads/close > Close threads > 200',
      'examples: closeThreads 200 resolved',
    ],
    breaks: ['a wrong content type'],
  },
  {
    id: 'close-response-lists',
    section: '4.1',
    words:
      'The body is a JSON object of four arrays of long: resolved_threads, not_existing_threads, already_resolved_threads, not_resolved_due_to_system_error',
    checks: ['schema', 'dredd: /api/v1/threads/close > Close threads > 200', 'examples: closeThreads 200 mixed'],
    breaks: ['a missing result list', 'int64 thread ids written as strings'],
  },
  {
    id: 'close-rule-1',
    section: '1, 4.1',
    words:
      'Rule 1: Nonexistent and already closed identifiers do not make the call fail; they appear in their own lists.',
    checks: [
      'examples: closeThreads 200 notExisting',
      'examples: closeThreads 200 alreadyResolved',
      'examples: closeThreads 200 mixed',
    ],
    breaks: ['a closed thread reported as resolved again'],
  },
  {
    id: 'close-rule-2',
    section: '1, 4.1',
    words: 'Rule 2: Every identifier in `threadIds` is reported in one of the four lists.',
    checks: ['listed-once', 'stateful: closeThreads: every identifier of threadIds is reported in exactly one list'],
    breaks: ['a thread reported in two lists'],
  },
  {
    id: 'close-repeated-ids',
    section: '4.1',
    words: 'Rule 2: Every identifier in `threadIds` is reported in one of the four lists (an identifier given twice)',
    open: 'repeated-ids',
    checks: ['list-form', 'examples: closeThreads 200 repeatedId'],
  },
  {
    id: 'close-result-order',
    section: '4.1',
    words: 'The body is a JSON object of four arrays of long (the order of the identifiers in them)',
    open: 'result-order',
    checks: ['list-form'],
  },
  {
    id: 'close-rule-3',
    section: '4.1',
    words: 'Rule 3: Behaviour when the comment is over 300 characters: not shown.',
    open: 'not shown',
    checks: [
      'boundaries: closeThreads: past the limit, comment: 301 code points (Latin)',
      'examples: closeThreads 400 commentTooLong',
    ],
  },

  // 4.2 Create subscriber
  {
    id: 'create-path',
    section: '4.2, 9',
    words:
      'Method and path: `POST {base_url}/api/subscribers/create`; 9: "The subscriber and cascade paths carry none."',
    checks: ['dredd: /api/subscribers/create > Create subscriber > 200', 'examples: createSubscriber 200 created'],
    breaks: [],
    missingBreak: true,
    idea: 'create subscriber served only under a version segment (/api/v1/subscribers/create)',
  },
  {
    id: 'create-content-type',
    section: '4.2',
    words: 'Request headers: `Content-Type: application/json`, `x-api-key: <API_KEY>`.',
    checks: [
      'bad-input: createSubscriber: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: createSubscriber: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'create-success',
    section: '4.2',
    words: 'Success: HTTP 200.',
    checks: [
      'examples: createSubscriber 200 created',
      'examples: createSubscriber 200 createdBlacklisted',
      'generated: createSubscriber: 25 generated valid requests are accepted',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a valid subscriber answered 201, or refused',
  },
  {
    id: 'create-failure-code',
    section: '4.2',
    words: 'Failure: an error code is returned.',
    checks: [
      'problem',
      'stateful: createSubscriber: the same addresses[type=EXT_USER_ID].address sent twice is refused the second time',
      'bad-input: createSubscriber: a valid request without its apiKey credential',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'a create subscriber refusal without `title` (the error code)',
  },
  {
    id: 'create-required-fields',
    section: '4.2',
    words: 'Which request fields are required: not shown.',
    open: 'not shown',
  },
  {
    id: 'create-update-delete',
    section: '4.2',
    words:
      'The update and delete subscriber methods are referenced, since they use the stored address. Their paths and shapes: not shown.',
    open: 'not shown',
  },

  // 4.3 Schedule cascade message
  {
    id: 'schedule-path',
    section: '4.3, 9',
    words: 'Method and path: `POST {base_url}/api/cascade/schedule`; 9: "The subscriber and cascade paths carry none."',
    checks: [
      'dredd: /api/cascade/schedule > Schedule cascade message > 200',
      'examples: scheduleCascade 200 scheduled',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'schedule cascade served only under a version segment (/api/v1/cascade/schedule)',
  },
  {
    id: 'schedule-content-type',
    section: '4.3',
    words: 'Request headers: `Content-Type: application/json`, `x-api-key: <API_KEY>`.',
    checks: [
      'bad-input: scheduleCascade: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: scheduleCascade: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'schedule-rule-1',
    section: '4.3',
    words: 'Rule 1: Every channel stage of the cascade needs a matching content entry in `content`.',
    checks: [
      'examples: scheduleCascade 400 contentMissingForStages',
      'examples: scheduleCascade 400 cascadeRequestNotValid',
    ],
    breaks: ['a schedule whose content is missing for a cascade stage accepted'],
  },
  {
    id: 'schedule-rule-2',
    section: '4.3',
    words: 'Rule 2: A content entry for a channel that is not a stage of the cascade is rejected.',
    checks: ['examples: scheduleCascade 400 contentForNoStage', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'schedule-rule-3',
    section: '4.3',
    words: 'Rule 3: Both violations are reported together in one error, with the text in `detail`.',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'schedule-rule-4',
    section: '1, 4.3',
    words: 'Rule 4: The content must match the template for its channel.',
    checks: ['examples: scheduleCascade 400 templateNotMatched'],
    breaks: [],
    missingBreak: true,
    idea: 'content that matches no template accepted (matched-template-not-found answered 200)',
  },
  {
    id: 'schedule-success',
    section: '4.3',
    words: 'Success response: not shown.',
    open: 'not shown',
    checks: ['schema'],
  },
  {
    id: 'schedule-required-fields',
    section: '4.3',
    words: 'Which request fields are required beyond those the error list names: not shown.',
    open: 'not shown',
  },
  {
    id: 'cascades-list',
    section: '4.3',
    words: 'The endpoint that lists the cascades of an account is referenced. Its path and shape: not shown.',
    open: 'not shown',
  },

  // 5 Authentication
  {
    id: 'auth-api-key-header',
    section: '4.2, 4.3, 5',
    words: 'Create subscriber, Schedule cascade | Request header `x-api-key` carries the API key (<API_KEY>).',
    checks: [
      'bad-input: scheduleCascade: a valid request without its apiKey credential',
      'bad-input: createSubscriber: a valid request without its apiKey credential',
      'examples: scheduleCascade 200 scheduled',
    ],
    breaks: ['a request without credentials accepted'],
  },
  {
    id: 'auth-wrong-key',
    section: '5, 7.2',
    words:
      'Rule 1: A wrong or expired API key gives HTTP 401 with error `auth-error`. | 401 | auth-error | Wrong or expired API key.',
    checks: [
      'examples: scheduleCascade 401 authError',
      'examples: createSubscriber 401 authError',
      'dredd: /api/cascade/schedule > Schedule cascade message > 401',
    ],
    breaks: ['a wrong title', 'a wrong status'],
  },
  {
    id: 'auth-missing-credential',
    section: '5',
    words:
      'Rule 1: A wrong or expired API key gives HTTP 401 with error `auth-error` (a request with no key is neither)',
    open: 'missing-credential',
    checks: ['bad-input: scheduleCascade: a valid request without its apiKey credential'],
    breaks: ['a request without credentials accepted'],
  },
  {
    id: 'auth-close-threads',
    section: '5',
    words: 'Rule 2: How the caller authenticates to close threads: not shown.',
    open: 'not shown',
    checks: ['bad-input: closeThreads: a valid request without its integratorToken credential'],
  },
  { id: 'auth-keys-issued', section: '5', words: 'Rule 3: How API keys are issued: not shown.', open: 'not shown' },

  // 6 Events
  {
    id: 'callback-reports-results',
    section: '1, 6',
    words: 'The service calls a status callback to report message delivery results.',
    checks: ['callbacks: every accepted message gets a callback naming its requestId within the window'],
    breaks: ['a callback naming another requestId'],
  },
  {
    id: 'callback-failed-undelivered',
    section: '1, 6, 7.3',
    words:
      'A failed delivery is reported with the status UNDELIVERED and one of the delivery error codes in section 7.2. (7.3: "Delivery error codes (status UNDELIVERED)")',
    checks: ['callback-schema', 'callbacks: every callback is a status callback as the document writes it'],
    breaks: ['UNDELIVERED reported without its error code', 'a delivery error code under another status'],
  },
  {
    id: 'callback-payload',
    section: '6',
    words: 'Payload shape of the callback: not shown.',
    open: 'not shown',
    // The payload of the public docs, which fills the gap: a break of it is no break of the description.
    checks: ['callback-schema', 'callbacks: a callback reports the cascadeId of the message it names'],
    breaks: ['a callback reporting another cascade', 'a callback without its messageId'],
  },
  {
    id: 'callback-registration',
    section: '6',
    words: 'How the callback address is registered: not shown.',
    open: 'not shown',
  },
  {
    id: 'callback-other-events',
    section: '6',
    words: 'Events for threads or subscribers: not shown.',
    open: 'not shown',
  },

  // 7.1 Error response
  {
    id: 'error-shape',
    section: '7.1',
    words:
      'An error response is a JSON object with the fields `title` (string, error code), `status` (integer, HTTP status) and `detail` (string, explanation).',
    checks: ['problem', 'status', 'json'],
    breaks: ['a problem without its status field', 'an empty title for an unknown path'],
  },
  {
    id: 'error-detail-violations',
    section: '7.1',
    words: '`detail` is seen on the cascade validation error, where it lists the violations.',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'error-codes-extended',
    section: '7.1, 9',
    words:
      'The set of errors may be extended, so integrations must tolerate unknown codes. (9: "The list of errors may be extended.")',
    unobservable:
      'it binds integrations (a client, this suite), not the service: the Problem schema keeps codes open, held by test/contract-facts.test.ts ("keeps codes an open set")',
  },
  {
    id: 'error-validation-spellings',
    section: '7.1',
    words:
      'The table gives the validation code as `cascade-scheduling-request-is-not-valid`, while the example response has `title` equal to `cascade-scheduling-request-not-valid`.',
    // Either spelling passes; a third fails.
    checks: ['examples: scheduleCascade 400 cascadeRequestNotValid', 'examples: scheduleCascade 400 contentForNoStage'],
    breaks: ['the validation code renamed'],
  },

  // 7.2 Errors after cascade scheduling (requestId-is-not-unique: request-id-unique; auth-error: auth-wrong-key)
  {
    id: 'error-content-not-specified',
    section: '7.2',
    words: '400 | content-not-specified | No content type and properties given.',
    checks: [
      'examples: scheduleCascade 400 contentNotSpecified',
      'boundaries: scheduleCascade: broken, content: missing',
      'boundaries: scheduleCascade: broken, content: empty object',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-content-type-not-specified',
    section: '2.4, 7.2',
    words:
      '400 | contentType-not-specified | No content type given. (2.4: content.<channel>.contentType | string | For example TEXT (also image). Required.)',
    checks: [
      'examples: scheduleCascade 400 contentTypeNotSpecified',
      'boundaries: scheduleCascade: broken, content.viberContent.contentType: missing',
      'boundaries: scheduleCascade: broken, content.smsContent.contentType: missing',
      'boundaries: scheduleCascade: broken, content.whatsappContent.contentType: missing',
      'boundaries: scheduleCascade: past the limit, content.smsContent.contentType: empty',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-text-not-specified',
    section: '2.4, 7.2',
    words:
      '400 | text-not-specified | Text field empty. (2.4: content.<channel>.text | string | Text; required for text content.)',
    checks: [
      'examples: scheduleCascade 400 textNotSpecified',
      'boundaries: scheduleCascade: past the limit, content.viberContent.text: 0 code points',
      'boundaries: scheduleCascade: past the limit, content.smsContent.text: 0 code points',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.text: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-caption-not-specified',
    section: '7.2',
    words: '400 | caption-not-specified | Caption field empty.',
    checks: [
      'examples: scheduleCascade 400 captionNotSpecified',
      'boundaries: scheduleCascade: past the limit, content.viberContent.caption: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-action-not-specified',
    section: '7.2',
    words: '400 | action-not-specified | No action for a button.',
    checks: [
      'examples: scheduleCascade 400 actionNotSpecified',
      'boundaries: scheduleCascade: past the limit, content.viberContent.action: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-attachment-name-not-specified',
    section: '7.2',
    words: '400 | attachmentName-not-specified | No name for the attached document.',
    checks: [
      'examples: scheduleCascade 400 attachmentNameNotSpecified',
      'boundaries: scheduleCascade: broken, content.whatsappContent.attachment.name: missing',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.attachment.name: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-attachment-name-too-long',
    section: '7.2',
    words: '400 | attachmentName-is-too-long | Attachment name over 70 characters.',
    checks: [
      'examples: scheduleCascade 400 attachmentNameTooLong',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.attachment.name: 71 code points (Latin)',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'error-latitude-not-specified',
    section: '7.2',
    words: '400 | latitude-not-specified | Latitude missing when coordinates are given.',
    checks: [
      'examples: scheduleCascade 400 latitudeNotSpecified',
      'boundaries: scheduleCascade: broken, content.whatsappContent.location.latitude: missing',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.location.latitude: 90',
    ],
    // The pole break gives the code where the latitude is there.
    breaks: ['200 for an invalid request', 'limit off by one: a latitude at the pole refused'],
  },
  {
    id: 'error-longitude-not-specified',
    section: '7.2',
    words: '400 | longitude-not-specified | Longitude missing when coordinates are given.',
    checks: [
      'examples: scheduleCascade 400 longitudeNotSpecified',
      'boundaries: scheduleCascade: broken, content.whatsappContent.location.longitude: missing',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-cascade-not-found',
    section: '2.4, 7.2',
    words: '400 | cascade-not-found | Wrong cascade identifier. (2.4: cascadeId | Identifier of an existing cascade.)',
    checks: [
      'examples: scheduleCascade 400 cascadeNotFound',
      'boundaries: scheduleCascade: past the limit, cascadeId: 0',
    ],
    breaks: [],
    missingBreak: true,
    idea: 'an unknown cascadeId accepted (cascade-not-found answered 200)',
  },
  {
    id: 'error-content-missing-for-stages',
    section: '7.2',
    words:
      '400 | request-doesn’t-contain-content-for-all-cascade-stages | The cascade has several channels and content is missing for some.',
    checks: ['examples: scheduleCascade 400 contentMissingForStages'],
    breaks: ['a schedule whose content is missing for a cascade stage accepted'],
  },
  {
    id: 'error-matched-template-not-found',
    section: '7.2',
    words: '400 | matched-template-not-found | The body does not match the template schema.',
    checks: ['examples: scheduleCascade 400 templateNotMatched'],
    breaks: [],
    missingBreak: true,
    idea: 'matched-template-not-found answered 200 or with another code',
  },
  {
    id: 'error-cascade-request-not-valid',
    section: '7.2',
    words:
      "400 | cascade-scheduling-request-is-not-valid | Content does not match the cascade's settings. `detail` holds the violations.",
    checks: [
      'examples: scheduleCascade 400 cascadeRequestNotValid',
      'examples: scheduleCascade 400 contentForNoStage',
      'violations',
    ],
    breaks: [
      'the validation code renamed',
      '200 for an invalid request',
      'a 500 for a request past a limit that has a code',
    ],
  },
  {
    id: 'error-template-parameter-not-valid',
    section: '7.2',
    words:
      '400 | template-parameter-is-not-valid | `listPicker.sections.items.title` or `listPicker.sections.items.subtitle` is over 24 characters, spaces included.',
    checks: [
      'examples: scheduleCascade 400 templateParameterNotValid',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.0.title: 25 code points (Latin)',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.0.subtitle: 25 code points (Latin)',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.0.title: 25 code points, a space at each end',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.10.title: 25 code points (Latin) (position 11)',
    ],
    breaks: [
      '200 for an invalid request',
      'a 500 for a request past a limit that has a code',
      'list item lengths counted without their spaces',
      'a limit inside a list read at one-digit positions only (a list-picker title over 24 characters at position 11 answered 500)',
    ],
  },
  {
    id: 'error-out-of-balance',
    section: '7.2',
    words: '400 | out-of-balance | Insufficient balance.',
    checks: [
      'examples: scheduleCascade 400 outOfBalance',
      'stateful: scheduleCascade: the account without balance is refused every time, on every channel',
    ],
    breaks: ['an out-of-balance account accepted', 'the balance checked only on the first message of a key'],
  },
  {
    id: 'error-button-validation',
    section: '7.2',
    words:
      '400 | button-validation-error | WhatsApp template with buttons is invalid. The comment is one of: more than 10 buttons; more than 2 URL buttons; more than 1 PHONE button; `payload` longer than 128 characters.',
    checks: [
      'examples: scheduleCascade 400 buttonValidationError',
      'examples: scheduleCascade 400 buttonsAcrossRows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 11 items over 2 rows',
    ],
    breaks: [
      '200 for an invalid request',
      'a 500 for a request past a limit that has a code',
      'limit held per row: too many buttons spread across rows accepted',
    ],
  },
  {
    id: 'error-mm-api-options',
    section: '7.2',
    words:
      '400 | mm-api-options-invalid-combination | Incompatible WhatsApp options: `messageActivitySharing` is true while `useMarketingMessagesApi` is false.',
    checks: ['examples: scheduleCascade 400 mmApiOptionsInvalidCombination'],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'error-mm-api-option-absent',
    section: '7.2',
    words: '`messageActivitySharing` is true while `useMarketingMessagesApi` is false (and when it is left out)',
    open: 'absent-marketing-option',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.useMarketingMessagesApi: left out (absent-marketing-option)',
    ],
  },
  {
    id: 'error-not-found',
    section: '7.2',
    words: '404 | not-found | Requested URL not found.',
    checks: [
      'examples: scheduleCascade 404 notFound',
      'dredd: /api/cascade/schedule > Schedule cascade message > 404',
      'bad-input: scheduleCascade: unknown path /api/cascade/schedule/extra',
    ],
    breaks: ['404 answered with an HTML page', 'an empty title for an unknown path'],
  },
  {
    id: 'error-method-not-allowed',
    section: '7.2',
    words: '405 | method-not-allowed | HTTP method not allowed for the URL.',
    checks: [
      'examples: scheduleCascade 405 methodNotAllowed',
      'bad-input: scheduleCascade: method GET',
      'bad-input: scheduleCascade: method PUT',
    ],
    breaks: ['405 answered as 404'],
  },
  {
    id: 'error-system-error',
    section: '7.2',
    words:
      '500 | system-error | Server error. It may also occur on a malformed request (wrong placement, missing or empty properties).',
    checks: [
      'examples: scheduleCascade 500 systemError',
      'bad-input: scheduleCascade: malformed JSON',
      'bad-input: scheduleCascade: not JSON',
    ],
    // An answer, not a dropped connection, to a request it cannot read.
    breaks: ['the connection dropped on malformed JSON'],
  },
  {
    id: 'error-malformed-property',
    section: '7.2',
    words: 'It may also occur on a malformed request (wrong placement, missing or empty properties).',
    open: 'malformed-property',
    checks: ['boundaries: scheduleCascade: broken, content.viberContent.contentType: missing'],
  },
  {
    id: 'error-precedence',
    section: '7.2',
    words: 'HTTP | Code | Condition (a request that meets two conditions)',
    open: 'error-precedence',
    checks: ['examples: scheduleCascade 400 twoRulesBroken'],
  },
  {
    id: 'violations-format',
    section: '7.2',
    words:
      'The `detail` of the validation error starts with a fixed sentence and a `Violations:` list, separated by semicolons.',
    checks: ['violations', 'violations-separated', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail', 'violations joined without their separator'],
  },
  {
    id: 'violation-no-stage',
    section: '7.2',
    words:
      'The cascade has no stage for a content channel that was sent (names the cascade template id and the content channel type).',
    checks: ['violations', 'examples: scheduleCascade 400 contentForNoStage'],
    breaks: [],
    missingBreak: true,
    idea: 'the violation "no stage for the content channel" dropped from detail (the listed break drops the last one only)',
  },
  {
    id: 'violation-missing-content',
    section: '7.2',
    words:
      'The content is missing for a cascade stage (names the cascade template id, the stage UUID and the channel type).',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'violation-keys',
    section: '7.2',
    words: 'names the cascade template id, the stage UUID and the channel type (the keys they are named by)',
    open: 'violation-keys',
    checks: ['violations'],
  },

  // 7.3 Delivery error codes (that each comes with UNDELIVERED: callback-failed-undelivered)
  {
    id: 'delivery-not-template-match',
    section: '7.3',
    words: 'not-template-match | The message does not match an allowed template.',
    unobservable: "which templates are allowed is the account's configuration, which no call of this interface shows",
  },
  {
    id: 'delivery-too-long-message',
    section: '7.3',
    words: 'too-long-message | The message exceeds the length limit.',
    // The limit is not shown: the webhook example's request carries a text a deployment maps over its own limit.
    checks: ['callback-outcome', 'callbacks: a message the document gives a delivery outcome is reported so'],
    breaks: ['a text over the limit reported delivered', 'every message reported not-template-match'],
  },
  {
    id: 'delivery-media-request-failed',
    section: '7.3',
    words: 'media-request-failed | A file could not be loaded.',
    missingCheck: true,
    idea: 'schedule a WhatsApp document whose attachment URL answers 404: refused, or its callback UNDELIVERED media-request-failed (never DELIVERED)',
  },
  {
    id: 'delivery-error-subject-unknown',
    section: '7.3',
    words:
      'error-subject-unknown | The sender signature is not allowed for the client; all signatures must be activated first.',
    unobservable:
      "sender signatures and their activation are the account's configuration: no call of this interface shows or changes them",
  },
  {
    id: 'delivery-error-address-format',
    section: '7.3',
    words: 'error-address-format | The subscriber number has a wrong format.',
    checks: ['callback-outcome', 'callbacks: a message the document gives a delivery outcome is reported so'],
    breaks: ['a malformed number reported delivered', 'every message reported not-template-match'],
  },
  {
    id: 'delivery-duplicated',
    section: '7.3, 8',
    words:
      'duplicated | A duplicate message was sent within 5 minutes. | duplicate window | Message sending | an identical message within 5 minutes is reported as `duplicated`',
    checks: ['callback-duplicated', 'callbacks: is reported as duplicated'],
    breaks: ['a duplicate reported delivered'],
  },
  {
    id: 'delivery-duplicate-window-length',
    section: '7.3, 8',
    words: 'an identical message within 5 minutes is reported as `duplicated` (the window is 5 minutes)',
    missingCheck: true,
    idea: 'opt-in, slow: the identical message again after 4½ minutes is still duplicated (the stage sends it at once, so a 1-minute window passes)',
  },

  // 8 Limits (requestId: request-id-unique; duplicate window: delivery-duplicated)
  {
    id: 'limit-comment-300',
    section: '4.1, 8',
    words: 'comment length | Close threads | at most 300 characters',
    checks: [
      'boundaries: closeThreads: at the limit, comment: 300 code points (Latin)',
      'boundaries: closeThreads: at the limit, comment: 300 code points (Cyrillic)',
      'boundaries: closeThreads: at the limit, comment: 300 code points ([ and {)',
    ],
    breaks: [
      'limit off by one: a comment at the limit refused',
      'limit counted in bytes: a Cyrillic comment at the limit refused',
      'a text full of [ and { refused (a nesting depth counted inside strings)',
    ],
  },
  {
    id: 'limit-attachment-name-70',
    section: '8',
    words: 'attachmentName length | Cascade scheduling | at most 70 characters',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.attachment.name: 70 code points (Latin)',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.attachment.name: 70 code points (Cyrillic)',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.attachment.name: 70 code points ([ and {)',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.attachment.name: 71 code points (Latin)',
    ],
    breaks: [
      '200 for an invalid request',
      'non-ASCII message text answered 500',
      'a text full of [ and { refused (a nesting depth counted inside strings)',
    ],
  },
  {
    id: 'limit-list-picker-24',
    section: '8',
    words: 'listPicker item title and subtitle | Cascade scheduling | at most 24 characters each, spaces included',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.listPicker.sections.0.items.0.title: 24 code points (Cyrillic)',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.listPicker.sections.0.items.0.subtitle: 24 code points (Cyrillic)',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.0.title: 25 code points, a space at each end',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.0.items.0.subtitle: 25 code points, a space at each end',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.listPicker.sections.10.items.0.title: 25 code points (Latin) (position 11)',
    ],
    breaks: [
      'list item lengths counted without their spaces',
      'a limit inside a list read at one-digit positions only (a list-picker title over 24 characters at position 11 answered 500)',
      'non-ASCII message text answered 500',
      '200 for an invalid request',
    ],
  },
  {
    id: 'limit-buttons-10',
    section: '8',
    words: 'buttons per WhatsApp template | Cascade scheduling | at most 10',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.[].buttons: 10 items over 2 rows',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.1.buttons: 10 items',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 11 items over 2 rows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.0.buttons: 11 items',
    ],
    breaks: [
      'limit off by one: as many buttons as allowed refused',
      'limit held per row: too many buttons spread across rows accepted',
      '200 for an invalid request',
    ],
  },
  {
    id: 'limit-url-buttons-2',
    section: '8',
    words: 'URL buttons per template | Cascade scheduling | at most 2',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.[].buttons: 2 of buttonType URL over 2 rows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 3 of buttonType URL over 2 rows',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'limit-phone-buttons-1',
    section: '8',
    words: 'PHONE buttons per template | Cascade scheduling | at most 1',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.[].buttons: 1 of buttonType PHONE over 2 rows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 2 of buttonType PHONE over 2 rows',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'limit-payload-128',
    section: '8',
    words: 'quick-reply `payload` length | Cascade scheduling | at most 128 characters',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.1.buttons.0.payload: 128 code points (Latin)',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.1.buttons.0.payload: 128 code points (Cyrillic)',
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.1.buttons.0.payload: 128 code points ([ and {)',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.1.buttons.0.payload: 129 code points (Latin)',
    ],
    breaks: [
      'limit counted in bytes: a Cyrillic payload at the limit refused',
      'non-ASCII message text answered 500',
      'a text full of [ and { refused (a nesting depth counted inside strings)',
      '200 for an invalid request',
      'a 500 for a request past a limit that has a code',
    ],
  },
  {
    id: 'limit-characters',
    section: '8',
    words: 'at most 300 characters; at most 24 characters each, spaces included (what a character is)',
    open: 'characters',
    checks: ['boundaries: closeThreads: at the limit, comment: 300 code points (emoji)'],
  },
  { id: 'limit-rate', section: '8', words: 'Rate limits: not shown.', open: 'rate-limit', checks: ['no-rate-limit'] },
  {
    id: 'limit-thread-ids-count',
    section: '8',
    words: 'Maximum number of identifiers in `threadIds`: not shown.',
    open: 'thread-ids-count',
    checks: ['boundaries: closeThreads: at the limit, threadIds: 1000 distinct items'],
  },
  {
    id: 'limit-subscriber-sizes',
    section: '8',
    words: 'Size limits of subscriber fields and of the arrays: not shown.',
    open: 'not shown',
    // This contract's reading: 100 items are taken.
    checks: [
      'boundaries: createSubscriber: at the limit, parameterValues: 100 items',
      'boundaries: createSubscriber: at the limit, tagValues: 100 items',
    ],
    breaks: ['a subscriber with many parameter values refused'],
  },

  // 9 Versioning (the path facts: close-path, create-path, schedule-path; errors extended: error-codes-extended)
  {
    id: 'versioning-policy',
    section: '9',
    words: 'Versioning policy and deprecation rules: not shown.',
    open: 'not shown',
  },
];

/** Breaks of the mutation lists that break no rule of the description: what each breaks instead. */
export const outside: Record<string, string> = {
  'a startTime with a numeric offset refused':
    'startTime comes from the public docs (public-facts.md), not the description',
  'a 405 without the Allow header':
    'RFC 9110 section 15.5.6; the description says only "HTTP method not allowed for the URL"',
  'no retry after the receiver answers 500':
    'retries come from the public docs (public-facts.md); section 6 shows no retry',
  'a callback its receiver never answered counted as delivered':
    'retries come from the public docs (public-facts.md); section 6 shows no retry',
};
