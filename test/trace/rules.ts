// Every rule the description (openapi/sources/service-interface.md) states, each with what exercises it: "no sentence without its check".
// A rule is one fact; where sections state the same fact, one entry names them all. Section 1 only summarises
// sections 2 to 8: its sentences are here under the section that states each; 2.4's list of property names the error
// list refers to is in the entries of those errors. test/trace.test.ts holds the names to the suite (its planned
// checks, the registry) and the mutation lists.
//
// checks: a registry id (judge.ts `registered()`), or `<stage>: <text>` that the name of a planned check contains.
// breaks: breaks of test/conformance/mutations.ts `mutations` (the default profile), `strictMutations` (a rule only this
// contract's decisions check: strictOnly) or callbacks.ts `breaks` that a listed check fails on, read from a run of each
// break, not guessed.

export interface Rule {
  id: string;
  /** The sections that state it. */
  section: string;
  /** The description's words: its text only inside straight double quotes, as written (backticks and whitespace
   * aside); which part, which section or why stays outside them. test/trace.test.ts holds each quote to the description. */
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
      '"thread identifier | long (integer) | Internal identifier of a thread. It is passed in `threadIds` and returned in the four result lists."',
    checks: [
      'schema',
      'examples: closeThreads 200 mixed',
      'boundaries: closeThreads: at the limit, threadIds.0: 2^31',
      'boundaries: closeThreads: at the limit, threadIds.0: 2^53 + 1',
      'boundaries: closeThreads: at the limit, threadIds.0: -(2^53 + 1)',
      'boundaries: closeThreads: at the limit, threadIds.0: 2^53 + 1 with an exponent',
    ],
    breaks: [
      'int64 thread ids written as strings',
      'int32 ids: a thread id past 2^31 answered 500',
      'a negative id past -2^53 answered 500 (read as a double)',
      'an id past 2^53 with an exponent read as a double',
      'an id with an exponent answered 500',
    ],
  },
  {
    id: 'thread-fields',
    section: '2.1',
    words: '"Thread fields beyond the identifier: not shown."',
    open: 'not shown',
  },

  // 2.2 Subscriber
  {
    id: 'subscriber-blacklisted-boolean',
    section: '2.2, 3.3',
    words: '2.2: "blacklisted | boolean"; 3.3: "The blacklisted flag has two values (true, false)."',
    checks: [
      'examples: createSubscriber 200 createdBlacklisted',
      'generated: createSubscriber: 25 generated valid requests are accepted',
      'boundaries: createSubscriber: broken, blacklisted: wrong type',
    ],
    breaks: ['a blacklisted subscriber refused'],
  },
  {
    id: 'subscriber-blacklisted-meaning',
    section: '2.2',
    words: 'blacklisted: "true: excluded from mailings and cannot receive them. false: may receive mailings."',
    unobservable: 'mailings are no operation of this interface: no call shows who receives one',
  },
  {
    id: 'subscriber-addresses-array',
    section: '2.2',
    words: '"addresses | array of objects | Addresses or identifiers of the subscriber."',
    checks: [
      'boundaries: createSubscriber: broken, addresses.0: wrong type',
      'boundaries: createSubscriber: broken, addresses: wrong type',
    ],
    breaks: ['a subscriber without an EXT_USER_ID address accepted'],
  },
  {
    id: 'subscriber-address-string',
    section: '2.2',
    words:
      '"addresses[].address | string | Unique identifier of the subscriber, such as a phone number, an internal identifier or a UUID."',
    checks: [
      'boundaries: createSubscriber: broken, addresses.0.address: wrong type',
      'boundaries: createSubscriber: broken, addresses.0.address: missing',
    ],
    breaks: ['an address given as no string accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-ext-user-id-unique',
    section: '2.2, 4.2',
    words:
      '2.2, addresses[].address: "Unique identifier of the subscriber"; 4.2: "A subscriber is created whose external identifier is the address of type EXT_USER_ID."',
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
    words:
      '"addresses[].address | string | Unique identifier of the subscriber". Which of several addresses is unique: not stated.',
    open: 'unique-addresses',
    checks: [
      'stateful: createSubscriber: a request sharing every value but addresses[type=EXT_USER_ID].address with an accepted one is accepted',
    ],
  },
  {
    id: 'subscriber-address-kept',
    section: '2.2',
    words:
      'addresses[].address: "It is needed later to update and delete the subscriber, so it must be kept by the caller."',
    unobservable: 'a duty of the caller; the update and delete methods that need it are not shown (4.2)',
  },
  {
    id: 'subscriber-address-type-values',
    section: '2.2',
    words:
      '"addresses[].type | string (upper case) | Kind of identifier."; "Allowed values of `addresses[].type`:" "INSTAGRAM_ID", "FACEBOOK_ID", "DEVICE_APP_ID", "PHONE", "EMAIL", "UTM", "COOKIE_ID", "TELEGRAM_ID", "GOOGLE_ID", "APPLE_ID", "YANDEX_ID", "EXT_USER_ID" (12 values)',
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
    words:
      '"Allowed values of `addresses[].type`:" "INSTAGRAM_ID", "FACEBOOK_ID", "DEVICE_APP_ID", "PHONE", "EMAIL", "UTM", "COOKIE_ID", "TELEGRAM_ID", "GOOGLE_ID", "APPLE_ID", "YANDEX_ID", "EXT_USER_ID"',
    unobservable:
      'no value is known to be accepted under each type: 2.2 gives the types and an address "such as a phone number, an internal identifier or a UUID", no format per type (a service may refuse an EMAIL that is no e-mail); a value outside the types is refused (subscriber-address-type)',
  },
  {
    id: 'subscriber-ext-user-id-given',
    section: '2.2',
    words: 'addresses[].type: "For the create method an identifier of type EXT_USER_ID is to be given."',
    checks: [
      'boundaries: createSubscriber: past the limit, addresses: 0 of type EXT_USER_ID',
      'boundaries: createSubscriber: broken, addresses: empty list',
    ],
    breaks: ['a subscriber without an EXT_USER_ID address accepted'],
  },
  {
    id: 'address-type-asterisk',
    section: '2.2',
    words: '"INSTAGRAM_ID and FACEBOOK_ID are marked with an asterisk; the meaning of the mark: not shown."',
    open: 'not shown',
  },
  {
    id: 'subscriber-parameter-values-array',
    section: '2.2',
    words: '"parameterValues | array of objects | Parameters of the subscriber."',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0: wrong type',
    ],
    breaks: ['parameterValues given as no list accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-parameter-name-string',
    section: '2.2',
    words: '"parameterValues[].name | string | Name of the parameter."',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.0.name: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0.name: missing',
    ],
    breaks: ['a parameter without its name accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-parameter-value-type',
    section: '2.2',
    words: '"parameterValues[].valueType | string | One of STRING, ENUM, DATE."',
    checks: [
      'examples: createSubscriber 200 created',
      'boundaries: createSubscriber: broken, parameterValues.0.valueType: not one of the values',
    ],
    breaks: ['a valueType outside STRING, ENUM and DATE accepted'],
  },
  {
    id: 'subscriber-parameter-value-string',
    section: '2.2',
    words: '"parameterValues[].value | string | Value."',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.0.value: wrong type',
      'boundaries: createSubscriber: broken, parameterValues.0.value: missing',
    ],
    breaks: ['a parameter value given as no string accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-parameter-date',
    section: '2.2',
    words: 'parameterValues[].value: "For DATE the format is year-month-day (YYYY-MM-DD)."',
    checks: [
      'boundaries: createSubscriber: broken, parameterValues.2.value: bad date',
      'boundaries: createSubscriber: past the limit, parameterValues.2.value: a day no month has',
      'boundaries: createSubscriber: at the limit, parameterValues.2.value: a leap day',
    ],
    breaks: ['a DATE not written YYYY-MM-DD accepted'],
  },
  {
    id: 'subscriber-parameter-enum',
    section: '2.2',
    words: 'parameterValues[].value: "For ENUM it is one of the enumerated values of that parameter."',
    checks: ['examples: createSubscriber 400 parameterValueNotInEnum'],
    breaks: ['an ENUM value outside its values accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-tag-values-array',
    section: '2.2',
    words: '"tagValues | array of objects | Tags of the subscriber."',
    checks: [
      'boundaries: createSubscriber: broken, tagValues: wrong type',
      'boundaries: createSubscriber: broken, tagValues.0: wrong type',
      'boundaries: createSubscriber: broken, tagValues.0.name: wrong type',
    ],
    breaks: ['tagValues given as a list of strings accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-tag-created-beforehand',
    section: '2.2',
    words: '"tagValues[].name | string | Name of a tag that was created beforehand."',
    checks: ['examples: createSubscriber 400 tagNotFound'],
    breaks: ['a tag never created accepted'],
    strictOnly: true,
  },
  {
    id: 'subscriber-record',
    section: '2.2, 4.2',
    words:
      '2.2: "Subscriber record as returned by the service: not shown." 4.2: "Body of the success response: not shown."',
    open: 'created-body',
    checks: ['body', 'schema'],
  },

  // 2.3 Cascade, 2.4 the scheduling request
  {
    id: 'cascade-id-integer',
    section: '2.3, 2.4',
    words:
      '2.3: "A cascade has a numeric identifier (`cascadeId`)"; 2.4: "cascadeId | integer | Identifier of an existing cascade."',
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
      '2.3: "A cascade has a numeric identifier (`cascadeId`) and an ordered list of stages."; 1: "an ordered set of channel stages (for example Viber then WhatsApp or SMS)"',
    unobservable:
      'which stage a message went out on, and in which order they were tried, is in nothing the description shows (the callback payload is not shown)',
  },
  {
    id: 'cascade-channel-types',
    section: '2.3',
    words:
      '"Each stage has a stage identifier (UUID-like string) and a channel type. Channel types seen: VIBER, WHATSAPP, SMS."',
    checks: [
      'examples: scheduleCascade 200 scheduled',
      'examples: scheduleCascade 200 scheduledWhatsAppTemplate',
      'violations',
    ],
    breaks: ['WhatsApp content refused by a cascade with a WHATSAPP stage'],
  },
  {
    id: 'cascade-fields',
    section: '2.3',
    words: '"Cascade fields beyond the identifier and the stages\' channel types: not shown."',
    open: 'not shown',
  },
  {
    id: 'request-id-uuid-like',
    section: '2.4',
    words: '"requestId | string (UUID-like)"',
    checks: [
      'boundaries: scheduleCascade: at the limit, requestId: a UUID in upper case',
      'generated: scheduleCascade: 25 generated valid requests are accepted',
    ],
    breaks: ['an upper-case UUID requestId refused'],
  },
  {
    id: 'request-id-not-uuid',
    section: '2.4',
    words: '"requestId | string (UUID-like)". Whether a string that is no UUID is accepted: not stated.',
    open: 'request-id-form',
    checks: ['boundaries: scheduleCascade: at the limit, requestId: a string that is no UUID'],
  },
  {
    id: 'request-id-unique',
    section: '2.4, 7.2, 8',
    words:
      '2.4: "requestId | string (UUID-like) | Must be unique per request; reuse gives error `requestId-is-not-unique`."; 7.2: "400 | requestId-is-not-unique | `requestId` was used before."; 8: "requestId | Cascade scheduling | unique per request"',
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
      '"subscriberFilter | object | Selects the recipient."; "subscriberFilter.address | string | Address of the recipient."; "subscriberFilter.type | string | Address type (for example PHONE)."',
    checks: [
      'boundaries: scheduleCascade: broken, subscriberFilter: missing',
      'boundaries: scheduleCascade: broken, subscriberFilter: wrong type',
      'boundaries: scheduleCascade: broken, subscriberFilter.address: wrong type',
      'boundaries: scheduleCascade: broken, subscriberFilter.type: not one of the values',
    ],
    breaks: ['a schedule without subscriberFilter accepted'],
  },
  {
    id: 'content-object',
    section: '2.4',
    words: '"content | object | Per-channel content, one entry for each stage channel of the cascade."',
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
      '"content.viberContent | object | Content for the Viber channel."; "content.smsContent | object | Content for the SMS channel."',
    checks: [
      'boundaries: scheduleCascade: broken, content.viberContent: wrong type',
      'boundaries: scheduleCascade: broken, content.smsContent: wrong type',
    ],
    breaks: ['channel content given as no object accepted'],
  },
  {
    id: 'content-type-image',
    section: '2.4',
    words: '"content.<channel>.contentType | string | For example TEXT (also image)."',
    unobservable:
      'no image request is known to be valid: 2.4 shows the fields of text content only ("text; required for text content"), none of an image',
  },

  // 3.1 Thread states (and the meaning of the four lists of 4.1)
  {
    id: 'thread-open-closed',
    section: '3.1, 4.1',
    words:
      '3.1: "open | Close threads call | Closing succeeds | closed | Identifier goes into `resolved_threads`."; 4.1: "resolved_threads | Threads closed by this call."',
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
      '3.1: "open | Close threads call | System error during closing | open | Identifier goes into `not_resolved_due_to_system_error`."',
    checks: [
      'examples: closeThreads 200 notResolvedDueToSystemError',
      'stateful: closeThreads: the same threadIds sent again, each identifier is where the document says',
    ],
    // The stateful check holds it (seed 1, the mutation test's run): sent again, the thread stays listed as failed or closed.
    breaks: ['a thread whose closing failed closed anyway (reported as already closed next time)'],
  },
  {
    id: 'thread-closed-already',
    section: '3.1, 4.1',
    words:
      '3.1: "closed | Close threads call | Thread already closed at call time | closed | Identifier goes into `already_resolved_threads`."',
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
      '3.1: "(no such thread) | Close threads call | Identifier matches no thread | none | Identifier goes into `not_existing_threads`. The call still succeeds."',
    checks: ['examples: closeThreads 200 notExisting', 'examples: closeThreads 200 mixed'],
    breaks: ['an identifier that matches no thread reported as resolved'],
  },
  {
    id: 'thread-reopen',
    section: '3.1',
    words: '"Transitions that reopen a thread: not shown."',
    open: 'not shown',
    checks: ['sent-again'],
  },

  // 3.2, 3.3
  {
    id: 'delivery-undelivered',
    section: '3.2',
    words: '"The status UNDELIVERED exists, reported on the status callback."',
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
    words: '"Other delivery states and all transitions: not shown."',
    open: 'statuses-reported',
    checks: ['callbacks: every callback reports a result'],
  },
  {
    id: 'subscriber-transitions',
    section: '3.3',
    words: '3.3: "The blacklisted flag has two values (true, false). Transitions: not shown."',
    open: 'not shown',
  },

  // 4.1 Close threads
  {
    id: 'close-path',
    section: '4.1, 9',
    words:
      '4.1: "Method and path: `POST {base_url}/api/v1/threads/close`"; 9: "The close-threads path carries a version segment (`v1`)."',
    checks: ['dredd: /api/v1/threads/close > Close threads > 200', 'examples: closeThreads 200 resolved'],
    breaks: ['close threads served without its v1 segment'],
  },
  {
    id: 'close-credential',
    section: '4.1, 5',
    words: '4.1: "Required permission: INTEGRATOR."; 5: "Close threads | Permission INTEGRATOR is required."',
    checks: ['bad-input: closeThreads: a valid request without its integratorToken credential'],
    breaks: ['a request without credentials accepted'],
  },
  {
    id: 'close-permission-integrator',
    section: '4.1, 5',
    words: '4.1: "Required permission: INTEGRATOR."',
    unobservable:
      'it needs the token of a user without INTEGRATOR, which the suite is not given: how the caller authenticates and how credentials are issued are not shown (5, rules 2 and 3); a request with no token is refused (close-credential)',
  },
  {
    id: 'close-content-type',
    section: '4.1',
    words: '"Request header: `Content-Type: application/json`."',
    checks: [
      'bad-input: closeThreads: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: closeThreads: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'close-thread-ids-required',
    section: '4.1',
    words: '"threadIds | array of long | yes | Identifiers of the threads to close."',
    checks: [
      'boundaries: closeThreads: broken, threadIds: missing',
      'boundaries: closeThreads: broken, threadIds: wrong type',
      'boundaries: closeThreads: broken, threadIds.0: wrong type',
    ],
    breaks: ['a close without threadIds accepted'],
    strictOnly: true,
  },
  {
    id: 'close-comment-optional',
    section: '4.1',
    words: '"comment | string | no | Reason for closing."',
    checks: ['examples: closeThreads 200 notExisting', 'boundaries: closeThreads: broken, comment: wrong type'],
    breaks: ['a close without a comment refused'],
  },
  {
    id: 'close-comment-applied',
    section: '1, 4.1',
    words:
      '4.1, comment: "Applied to all threads closed by this call."; 1: "An optional comment is applied to every thread closed in that call."',
    unobservable: "thread fields beyond the identifier are not shown: no call reads a thread's comment",
  },
  {
    id: 'close-response-json',
    section: '4.1',
    words: '"Response: HTTP 200, `Content-Type: application/json`."',
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
      '"The body is a JSON object of four arrays of long:" "resolved_threads", "not_existing_threads", "already_resolved_threads", "not_resolved_due_to_system_error"',
    checks: ['schema', 'dredd: /api/v1/threads/close > Close threads > 200', 'examples: closeThreads 200 mixed'],
    breaks: ['a missing result list', 'int64 thread ids written as strings'],
  },
  {
    id: 'close-rule-1',
    section: '1, 4.1',
    words:
      '4.1, rule 1: "Nonexistent and already closed identifiers do not make the call fail; they appear in their own lists."; 1: "The call accepts nonexistent identifiers and already closed threads"',
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
    words:
      '4.1, rule 2: "Every identifier in `threadIds` is reported in one of the four lists."; 1: "reports each identifier in one of four result lists"',
    checks: ['listed-once', 'stateful: closeThreads: every identifier of threadIds is reported in exactly one list'],
    breaks: ['a thread reported in two lists'],
  },
  {
    id: 'close-repeated-ids',
    section: '4.1',
    words:
      'Rule 2: "Every identifier in `threadIds` is reported in one of the four lists." An identifier given twice: not stated.',
    open: 'repeated-ids',
    checks: ['list-form', 'examples: closeThreads 200 repeatedId'],
  },
  {
    id: 'close-result-order',
    section: '4.1',
    words: '"The body is a JSON object of four arrays of long". The order of the identifiers in them: not stated.',
    open: 'result-order',
    checks: ['list-form'],
  },
  {
    id: 'close-rule-3',
    section: '4.1',
    words: 'Rule 3: "Behaviour when the comment is over 300 characters: not shown."',
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
      '4.2: "Method and path: `POST {base_url}/api/subscribers/create`"; 9: "The subscriber and cascade paths carry none."',
    checks: ['dredd: /api/subscribers/create > Create subscriber > 200', 'examples: createSubscriber 200 created'],
    breaks: ['create subscriber served under a version segment only'],
  },
  {
    id: 'create-content-type',
    section: '4.2',
    words: '"Request headers: `Content-Type: application/json`, `x-api-key: <API_KEY>`."',
    checks: [
      'bad-input: createSubscriber: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: createSubscriber: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'create-success',
    section: '4.2',
    words: '"Success: HTTP 200."',
    checks: [
      'examples: createSubscriber 200 created',
      'examples: createSubscriber 200 createdBlacklisted',
      'generated: createSubscriber: 25 generated valid requests are accepted',
    ],
    breaks: ['a created subscriber answered 201'],
  },
  {
    id: 'create-failure-code',
    section: '4.2',
    words: '"Failure: an error code is returned."',
    checks: [
      'problem',
      'stateful: createSubscriber: the same addresses[type=EXT_USER_ID].address sent twice is refused the second time',
      'bad-input: createSubscriber: a valid request without its apiKey credential',
    ],
    breaks: ['a refused subscriber without its code'],
  },
  {
    id: 'create-required-fields',
    section: '4.2',
    words: '"Which request fields are required: not shown."',
    open: 'not shown',
  },
  {
    id: 'create-update-delete',
    section: '4.2',
    words:
      '"The update and delete subscriber methods are referenced, since they use the stored address. Their paths and shapes: not shown."',
    open: 'not shown',
  },

  // 4.3 Schedule cascade message
  {
    id: 'schedule-path',
    section: '4.3, 9',
    words:
      '4.3: "Method and path: `POST {base_url}/api/cascade/schedule`"; 9: "The subscriber and cascade paths carry none."',
    checks: [
      'dredd: /api/cascade/schedule > Schedule cascade message > 200',
      'examples: scheduleCascade 200 scheduled',
    ],
    breaks: ['schedule cascade served under a version segment only'],
  },
  {
    id: 'schedule-content-type',
    section: '4.3',
    words: '"Request headers: `Content-Type: application/json`, `x-api-key: <API_KEY>`."',
    checks: [
      'bad-input: scheduleCascade: a valid request with Content-Type application/json; charset=utf-8',
      'bad-input: scheduleCascade: a valid request with Content-Type Application/JSON',
    ],
    breaks: ['application/json read only as written so (a charset or another case refused)'],
  },
  {
    id: 'schedule-rule-1',
    section: '4.3',
    words: 'Validation rule 1: "Every channel stage of the cascade needs a matching content entry in `content`."',
    checks: [
      'examples: scheduleCascade 400 contentMissingForStages',
      'examples: scheduleCascade 400 cascadeRequestNotValid',
    ],
    breaks: ['a schedule whose content is missing for a cascade stage accepted'],
  },
  {
    id: 'schedule-rule-2',
    section: '4.3',
    words: 'Validation rule 2: "A content entry for a channel that is not a stage of the cascade is rejected."',
    checks: ['examples: scheduleCascade 400 contentForNoStage', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'schedule-rule-3',
    section: '4.3',
    words: 'Validation rule 3: "Both violations are reported together in one error, with the text in `detail`."',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'schedule-rule-4',
    section: '1, 4.3',
    words:
      '4.3, validation rule 4: "The content must match the template for its channel."; 1: "The request is validated against the cascade\'s stages and the channel template."',
    checks: ['examples: scheduleCascade 400 templateNotMatched'],
    breaks: ['content matching no template accepted'],
  },
  {
    id: 'schedule-success',
    section: '4.3',
    words: '"Success response: not shown."',
    open: 'not shown',
    checks: ['schema'],
  },
  {
    id: 'schedule-required-fields',
    section: '4.3',
    words: '"Which request fields are required beyond those the error list names: not shown."',
    open: 'not shown',
  },
  {
    id: 'cascades-list',
    section: '4.3',
    words: '"The endpoint that lists the cascades of an account is referenced. Its path and shape: not shown."',
    open: 'not shown',
  },

  // 5 Authentication
  {
    id: 'auth-api-key-header',
    section: '4.2, 4.3, 5',
    words:
      '5: "Create subscriber, Schedule cascade | Request header `x-api-key` carries the API key (<API_KEY>)."; 4.2, 4.3: "Request headers: `Content-Type: application/json`, `x-api-key: <API_KEY>`."',
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
      '5, rule 1: "A wrong or expired API key gives HTTP 401 with error `auth-error`."; 7.2: "401 | auth-error | Wrong or expired API key."',
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
      'Rule 1: "A wrong or expired API key gives HTTP 401 with error `auth-error`." A request with no key is neither.',
    open: 'missing-credential',
    checks: ['bad-input: scheduleCascade: a valid request without its apiKey credential'],
    breaks: ['a request without credentials accepted'],
  },
  {
    id: 'auth-close-threads',
    section: '5',
    words: 'Rule 2: "How the caller authenticates to close threads: not shown."',
    open: 'not shown',
    checks: ['bad-input: closeThreads: a valid request without its integratorToken credential'],
  },
  { id: 'auth-keys-issued', section: '5', words: 'Rule 3: "How API keys are issued: not shown."', open: 'not shown' },

  // 6 Events
  {
    id: 'callback-reports-results',
    section: '1, 6',
    words:
      '6: "The service calls a status callback to report message delivery results."; 1: "Delivery results are reported to a status callback."',
    checks: ['callbacks: every accepted message gets a callback naming its requestId within the window'],
    breaks: ['a callback naming another requestId'],
  },
  {
    id: 'callback-failed-undelivered',
    section: '1, 6, 7.3',
    words:
      '6: "A failed delivery is reported with the status UNDELIVERED and one of the delivery error codes in section 7.2."; 7.3: "Delivery error codes (status UNDELIVERED)"; 1: "A failed delivery carries the status UNDELIVERED and an error code."',
    checks: ['callback-schema', 'callbacks: every callback is a status callback as the document writes it'],
    breaks: ['UNDELIVERED reported without its error code', 'a delivery error code under another status'],
  },
  {
    id: 'callback-payload',
    section: '6',
    words: '"Payload shape of the callback: not shown."',
    open: 'not shown',
    // The payload of the public docs, which fills the gap: a break of it is no break of the description.
    checks: ['callback-schema', 'callbacks: a callback reports the cascadeId of the message it names'],
    breaks: ['a callback reporting another cascade', 'a callback without its messageId'],
  },
  {
    id: 'callback-registration',
    section: '6',
    words: '"How the callback address is registered: not shown."',
    open: 'not shown',
  },
  {
    id: 'callback-other-events',
    section: '6',
    words: '"Events for threads or subscribers: not shown."',
    open: 'not shown',
  },

  // 7.1 Error response
  {
    id: 'error-shape',
    section: '7.1',
    words:
      '"An error response is a JSON object with the fields `title` (string, error code), `status` (integer, HTTP status) and `detail` (string, explanation)."',
    checks: ['problem', 'status', 'json'],
    breaks: ['a problem without its status field', 'an empty title for an unknown path'],
  },
  {
    id: 'error-detail-violations',
    section: '7.1',
    words: '"`detail` is seen on the cascade validation error, where it lists the violations."',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'error-codes-extended',
    section: '7.1, 9',
    words:
      '7.1: "The set of errors may be extended, so integrations must tolerate unknown codes."; 9: "The list of errors may be extended."',
    unobservable:
      'it binds integrations (a client, this suite), not the service: the Problem schema keeps codes open, held by test/contract-facts.test.ts ("keeps codes an open set")',
  },
  {
    id: 'error-validation-spellings',
    section: '7.1',
    words:
      '"The table gives the validation code as `cascade-scheduling-request-is-not-valid`, while the example response has `title` equal to `cascade-scheduling-request-not-valid`."',
    // Either spelling passes; a third fails.
    checks: ['examples: scheduleCascade 400 cascadeRequestNotValid', 'examples: scheduleCascade 400 contentForNoStage'],
    breaks: ['the validation code renamed'],
  },

  // 7.2 Errors after cascade scheduling (requestId-is-not-unique: request-id-unique; auth-error: auth-wrong-key)
  {
    id: 'error-content-not-specified',
    section: '7.2',
    words: '"400 | content-not-specified | No content type and properties given."',
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
      '7.2: "400 | contentType-not-specified | No content type given."; 2.4: "content.<channel>.contentType | string | For example TEXT (also image). Required."',
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
      '7.2: "400 | text-not-specified | Text field empty."; 2.4: "content.<channel>.text | string | Text; required for text content."',
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
    words: '"400 | caption-not-specified | Caption field empty."',
    checks: [
      'examples: scheduleCascade 400 captionNotSpecified',
      'boundaries: scheduleCascade: past the limit, content.viberContent.caption: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-action-not-specified',
    section: '7.2',
    words: '"400 | action-not-specified | No action for a button."',
    checks: [
      'examples: scheduleCascade 400 actionNotSpecified',
      'boundaries: scheduleCascade: past the limit, content.viberContent.action: 0 code points',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-attachment-name-not-specified',
    section: '7.2',
    words: '"400 | attachmentName-not-specified | No name for the attached document."',
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
    words: '"400 | attachmentName-is-too-long | Attachment name over 70 characters."',
    checks: [
      'examples: scheduleCascade 400 attachmentNameTooLong',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.attachment.name: 71 code points (Latin)',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'error-latitude-not-specified',
    section: '7.2',
    words: '"400 | latitude-not-specified | Latitude missing when coordinates are given."',
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
    words: '"400 | longitude-not-specified | Longitude missing when coordinates are given."',
    checks: [
      'examples: scheduleCascade 400 longitudeNotSpecified',
      'boundaries: scheduleCascade: broken, content.whatsappContent.location.longitude: missing',
    ],
    breaks: ['200 for an invalid request'],
  },
  {
    id: 'error-cascade-not-found',
    section: '2.4, 7.2',
    words:
      '7.2: "400 | cascade-not-found | Wrong cascade identifier."; 2.4: "cascadeId | integer | Identifier of an existing cascade."',
    checks: [
      'examples: scheduleCascade 400 cascadeNotFound',
      'boundaries: scheduleCascade: past the limit, cascadeId: 0',
    ],
    breaks: ['an unknown cascadeId accepted'],
  },
  {
    id: 'error-content-missing-for-stages',
    section: '7.2',
    words:
      '"400 | request-doesn’t-contain-content-for-all-cascade-stages | The cascade has several channels and content is missing for some."',
    checks: ['examples: scheduleCascade 400 contentMissingForStages'],
    breaks: ['a schedule whose content is missing for a cascade stage accepted'],
  },
  {
    id: 'error-matched-template-not-found',
    section: '7.2',
    words: '"400 | matched-template-not-found | The body does not match the template schema."',
    checks: ['examples: scheduleCascade 400 templateNotMatched'],
    breaks: ['matched-template-not-found answered with another code', 'content matching no template accepted'],
  },
  {
    id: 'error-cascade-request-not-valid',
    section: '7.2',
    words:
      '"400 | cascade-scheduling-request-is-not-valid | Content does not match the cascade\'s settings. `detail` holds the violations."',
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
      '"400 | template-parameter-is-not-valid | `listPicker.sections.items.title` or `listPicker.sections.items.subtitle` is over 24 characters, spaces included."',
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
    words: '"400 | out-of-balance | Insufficient balance."',
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
      '"400 | button-validation-error | WhatsApp template with buttons is invalid. The comment is one of: more than 10 buttons; more than 2 URL buttons; more than 1 PHONE button; `payload` longer than 128 characters."',
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
      '"400 | mm-api-options-invalid-combination | Incompatible WhatsApp options: `messageActivitySharing` is true while `useMarketingMessagesApi` is false."',
    checks: ['examples: scheduleCascade 400 mmApiOptionsInvalidCombination'],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'error-mm-api-option-absent',
    section: '7.2',
    words:
      '"Incompatible WhatsApp options: `messageActivitySharing` is true while `useMarketingMessagesApi` is false." When useMarketingMessagesApi is left out: not stated.',
    open: 'absent-marketing-option',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.useMarketingMessagesApi: left out (absent-marketing-option)',
    ],
  },
  {
    id: 'error-not-found',
    section: '7.2',
    words: '"404 | not-found | Requested URL not found."',
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
    words: '"405 | method-not-allowed | HTTP method not allowed for the URL."',
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
      '"500 | system-error | Server error. It may also occur on a malformed request (wrong placement, missing or empty properties)."',
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
    words: 'system-error: "It may also occur on a malformed request (wrong placement, missing or empty properties)."',
    open: 'malformed-property',
    checks: ['boundaries: scheduleCascade: broken, content.viberContent.contentType: missing'],
  },
  {
    id: 'error-precedence',
    section: '7.2',
    words: '"HTTP | Code | Condition". A request that meets two conditions: not stated.',
    open: 'error-precedence',
    checks: ['examples: scheduleCascade 400 twoRulesBroken'],
  },
  {
    id: 'violations-format',
    section: '7.2',
    words:
      '"The `detail` of the validation error starts with a fixed sentence and a `Violations:` list, separated by semicolons."',
    checks: ['violations', 'violations-separated', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail', 'violations joined without their separator'],
  },
  {
    id: 'violation-no-stage',
    section: '7.2',
    words:
      '"The cascade has no stage for a content channel that was sent (names the cascade template id and the content channel type)."',
    checks: ['violations', 'examples: scheduleCascade 400 contentForNoStage'],
    breaks: ['the violation of a channel no stage has left out'],
  },
  {
    id: 'violation-missing-content',
    section: '7.2',
    words:
      '"The content is missing for a cascade stage (names the cascade template id, the stage UUID and the channel type)."',
    checks: ['violations', 'examples: scheduleCascade 400 cascadeRequestNotValid'],
    breaks: ['a violation missing from detail'],
  },
  {
    id: 'violation-keys',
    section: '7.2',
    words:
      '"names the cascade template id, the stage UUID and the channel type". The keys they are named by: not stated.',
    open: 'violation-keys',
    checks: ['violations'],
  },

  // 7.3 Delivery error codes (that each comes with UNDELIVERED: callback-failed-undelivered)
  {
    id: 'delivery-not-template-match',
    section: '7.3',
    words: '"not-template-match | The message does not match an allowed template."',
    unobservable: "which templates are allowed is the account's configuration, which no call of this interface shows",
  },
  {
    id: 'delivery-too-long-message',
    section: '7.3',
    words: '"too-long-message | The message exceeds the length limit."',
    // The limit is not shown: the webhook example's request carries a text a deployment maps over its own limit.
    checks: ['callback-outcome', 'callbacks: a message the document gives a delivery outcome is reported so'],
    breaks: ['a text over the limit reported delivered', 'every message reported not-template-match'],
  },
  {
    id: 'delivery-media-request-failed',
    section: '7.3',
    words: '"media-request-failed | A file could not be loaded."',
    checks: ['callback-outcome', 'callbacks: a message the document gives a delivery outcome is reported so'],
    breaks: ['a file that cannot be loaded reported delivered', 'every message reported not-template-match'],
  },
  {
    id: 'delivery-error-subject-unknown',
    section: '7.3',
    words:
      '"error-subject-unknown | The sender signature is not allowed for the client; all signatures must be activated first."',
    unobservable:
      "sender signatures and their activation are the account's configuration: no call of this interface shows or changes them",
  },
  {
    id: 'delivery-error-address-format',
    section: '7.3',
    words: '"error-address-format | The subscriber number has a wrong format."',
    checks: ['callback-outcome', 'callbacks: a message the document gives a delivery outcome is reported so'],
    breaks: ['a malformed number reported delivered', 'every message reported not-template-match'],
  },
  {
    id: 'delivery-duplicated',
    section: '7.3, 8',
    words:
      '7.3: "duplicated | A duplicate message was sent within 5 minutes."; 8: "duplicate window | Message sending | an identical message within 5 minutes is reported as `duplicated`"',
    checks: ['callback-duplicated', 'callbacks: is reported as duplicated'],
    breaks: ['a duplicate reported delivered'],
  },
  {
    id: 'delivery-duplicate-window-length',
    section: '7.3, 8',
    words: '8: "an identical message within 5 minutes is reported as `duplicated`" (the window is 5 minutes)',
    unobservable:
      "the window's end comes 5 minutes after the first message: probing it takes a run of over 5 minutes, which the suite does not spend; inside the window it is probed (delivery-duplicated)",
  },

  // 8 Limits (requestId: request-id-unique; duplicate window: delivery-duplicated)
  {
    id: 'limit-comment-300',
    section: '4.1, 8',
    words:
      '8: "comment length | Close threads | at most 300 characters"; 4.1: "Reason for closing. At most 300 characters."',
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
    words: '"attachmentName length | Cascade scheduling | at most 70 characters"',
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
    words: '"listPicker item title and subtitle | Cascade scheduling | at most 24 characters each, spaces included"',
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
    words: '"buttons per WhatsApp template | Cascade scheduling | at most 10"',
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
    words: '"URL buttons per template | Cascade scheduling | at most 2"',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.[].buttons: 2 of buttonType URL over 2 rows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 3 of buttonType URL over 2 rows',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'limit-phone-buttons-1',
    section: '8',
    words: '"PHONE buttons per template | Cascade scheduling | at most 1"',
    checks: [
      'boundaries: scheduleCascade: at the limit, content.whatsappContent.keyboard.rows.[].buttons: 1 of buttonType PHONE over 2 rows',
      'boundaries: scheduleCascade: past the limit, content.whatsappContent.keyboard.rows.[].buttons: 2 of buttonType PHONE over 2 rows',
    ],
    breaks: ['200 for an invalid request', 'a 500 for a request past a limit that has a code'],
  },
  {
    id: 'limit-payload-128',
    section: '8',
    words: '"quick-reply `payload` length | Cascade scheduling | at most 128 characters"',
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
    words: '"at most 300 characters"; "at most 24 characters each, spaces included". What a character is: not stated.',
    open: 'characters',
    checks: ['boundaries: closeThreads: at the limit, comment: 300 code points (emoji)'],
  },
  { id: 'limit-rate', section: '8', words: '"Rate limits: not shown."', open: 'rate-limit', checks: ['no-rate-limit'] },
  {
    id: 'limit-thread-ids-count',
    section: '8',
    words: '"Maximum number of identifiers in `threadIds`: not shown."',
    open: 'thread-ids-count',
    checks: ['boundaries: closeThreads: at the limit, threadIds: 1000 distinct items'],
  },
  {
    id: 'limit-subscriber-sizes',
    section: '8',
    words: '"Size limits of subscriber fields and of the arrays: not shown."',
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
    words: '"Versioning policy and deprecation rules: not shown."',
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
  'a delivered message sent on at a later stage':
    'this contract\'s decision: section 3.2 shows no transition of a delivered message ("all transitions: not shown")',
};
