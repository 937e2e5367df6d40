type ClockMode = 'manual' | 'real';
/** The sandbox's clock as a test drives it (`sandbox.clock`). */
interface SandboxClock {
    /** `manual`: only set() and advance() move it; `real`: the machine's time (set() and advance() are refused). */
    readonly mode: ClockMode;
    /** The sandbox's time. */
    now(): Date;
    /**
     * Moves the clock to `to` (a Date or an ISO 8601 date-time, never earlier than now) and resolves, with the new time,
     * once every delivery and callback post due by then has run, callback retries included.
     */
    set(to: Date | string): Promise<Date>;
    /** Moves the clock `ms` milliseconds (an integer, 0 or more) on, as set() does. */
    advance(ms: number): Promise<Date>;
}

interface components {
    schemas: {
        /**
         * @description A cascade: an identifier and an ordered list of channel stages. No operation of this contract
         *     returns it; it is documented because the scheduling rules refer to it (and the sandbox's
         *     fixtures use it). Fields beyond these are not specified.
         */
        Cascade: {
            id: components["schemas"]["CascadeId"];
            /** @description The stages in the order they are tried. */
            stages: components["schemas"]["CascadeStage"][];
        };
        /**
         * Format: int64
         * @description Internal identifier of a chat thread (long).
         * @example 101
         */
        ThreadId: number;
        /**
         * @description Threads to close and an optional comment. The largest number of identifiers per call is not
         *     specified.
         */
        CloseThreadsRequest: {
            /**
             * @description Identifiers of the threads to close. Nonexistent and already closed identifiers do not
             *     make the call fail. **[contract decision]** An identifier repeated in one call is handled
             *     once and reported once, in the list that its state before the call gives. The service
             *     states no maximum number of identifiers; this contract takes any number, its decision on
             *     an open point: a service with a maximum of its own follows the description as well, so
             *     send large lists in parts.
             */
            threadIds: components["schemas"]["ThreadId"][];
            /**
             * @description Reason for closing, applied to every thread this call closes. The service's behaviour for
             *     a longer comment is not shown; **[contract decision]** it is rejected with 400
             *     `comment-is-too-long` and no thread is closed.
             */
            comment?: string;
        };
        /**
         * @description The error codes this contract knows. Codes of the service's error list come first. Both
         *     spellings of the cascade validation code are listed: the service's table says
         *     `cascade-scheduling-request-is-not-valid`, its example response says
         *     `cascade-scheduling-request-not-valid`; treat them as one code. The code
         *     `request-doesn’t-contain-content-for-all-cascade-stages` is written with a typographic
         *     apostrophe (U+2019) as in the service's list. The codes `comment-is-too-long`,
         *     `ext-user-id-not-specified`, `parameter-not-found`, `parameter-value-is-not-valid`,
         *     `tag-not-found` and `subscriber-already-exists` are **[contract decision]**: the service's
         *     errors of close threads and create subscriber are not shown. Where a request breaks two rules
         *     with codes of their own, this contract answers the code listed first here (its decision on an
         *     open point); the code of the other rule follows the description as well.
         * @enum {string}
         */
        KnownErrorCode: "requestId-is-not-unique" | "content-not-specified" | "contentType-not-specified" | "text-not-specified" | "caption-not-specified" | "action-not-specified" | "attachmentName-not-specified" | "attachmentName-is-too-long" | "latitude-not-specified" | "longitude-not-specified" | "cascade-not-found" | "request-doesn’t-contain-content-for-all-cascade-stages" | "matched-template-not-found" | "cascade-scheduling-request-is-not-valid" | "cascade-scheduling-request-not-valid" | "template-parameter-is-not-valid" | "out-of-balance" | "button-validation-error" | "mm-api-options-invalid-combination" | "auth-error" | "not-found" | "method-not-allowed" | "system-error" | "comment-is-too-long" | "ext-user-id-not-specified" | "parameter-not-found" | "parameter-value-is-not-valid" | "tag-not-found" | "subscriber-already-exists";
        /**
         * @description An error code. The set may be extended: any string is valid here, and a code that is not in
         *     `KnownErrorCode` must be handled as a generic error of the response's HTTP status.
         */
        ErrorCode: components["schemas"]["KnownErrorCode"] | (string & {});
        /**
         * @description An error response. `detail` explains the error; it is always present on the cascade
         *     validation error, where it lists the violations as
         *     `<sentence>. Violations: <violation>; <violation>...`. Each violation is a sentence followed
         *     by bracketed attributes `[key:value;key:value]` [public docs], so `;` appears both between
         *     violations and inside brackets, and numbers may carry group separators (`1,001`). An error is
         *     sent as `application/json`, this contract's decision on an open point (`x-open-points`): the
         *     description names no media type, so `application/problem+json` is as good an answer.
         */
        Problem: {
            title: components["schemas"]["ErrorCode"];
            /** @description The HTTP status of the response. */
            status: number;
            /**
             * @description Explanation of the error. The keys inside a violation's brackets are this contract's
             *     example's (`cascadeTemplateId`, `contentChannelType`, `stageUUID`, `channelType`)
             *     (this contract's decision on an open point): the description names what a violation names,
             *     not its keys.
             */
            detail?: string;
        };
        ThreadIdList: components["schemas"]["ThreadId"][];
        /** @description Every identifier of `threadIds` is reported in exactly one of the four lists. */
        ThreadsCloseResult: {
            /** @description Threads closed by this call (open -> closed). */
            resolved_threads: components["schemas"]["ThreadIdList"];
            /** @description Identifiers that match no thread. The call still succeeds. */
            not_existing_threads: components["schemas"]["ThreadIdList"];
            /** @description Threads that were already closed when the call was made; they stay closed. */
            already_resolved_threads: components["schemas"]["ThreadIdList"];
            /** @description Open threads whose closing failed with a system error; they stay open. */
            not_resolved_due_to_system_error: components["schemas"]["ThreadIdList"];
        };
        /**
         * @description Kind of a subscriber identifier, in upper case. `INSTAGRAM_ID` and `FACEBOOK_ID` carry an
         *     asterisk in the service's description; the meaning of the mark is not specified.
         * @enum {string}
         */
        AddressType: "INSTAGRAM_ID" | "FACEBOOK_ID" | "DEVICE_APP_ID" | "PHONE" | "EMAIL" | "UTM" | "COOKIE_ID" | "TELEGRAM_ID" | "GOOGLE_ID" | "APPLE_ID" | "YANDEX_ID" | "EXT_USER_ID";
        /** @description An address or identifier of a subscriber. */
        SubscriberAddress: {
            /**
             * @description Unique identifier of the subscriber: a phone number, an internal identifier, a UUID. The
             *     update and delete methods need it later, so the caller must keep it. Only the `EXT_USER_ID`
             *     address names one subscriber for good, this contract's decision on an open point: a service
             *     that refuses a second subscriber with any address of an existing one follows the description
             *     as well.
             * @example crm-000123
             */
            address: string;
            type: components["schemas"]["AddressType"];
        };
        /**
         * @description A typed parameter of the subscriber. For `DATE` the value is a date `YYYY-MM-DD`; for `ENUM`
         *     it is one of the enumerated values of that parameter (defined in the account, not in this
         *     document).
         */
        ParameterValue: {
            /** @description Name of a parameter defined in the account. */
            name: string;
            /** @enum {string} */
            valueType: "STRING" | "ENUM" | "DATE";
            value: string;
        };
        /** @description A tag of the subscriber. */
        TagValue: {
            /** @description Name of a tag that was created in the account beforehand. */
            name: string;
        };
        /**
         * @description The subscriber to create. Which fields are required is not shown beyond the rule that an
         *     address of type `EXT_USER_ID` is to be given: `addresses` is therefore required and must hold
         *     an `EXT_USER_ID` address, the subscriber's external identifier. That it holds no more than one
         *     is this contract's decision, marked on `addresses`. That its lists take any number of items is
         *     this contract's decision on an open point: a service may refuse a long list with a 4xx error.
         */
        CreateSubscriberRequest: {
            /** @description `true`: excluded from mailings and cannot receive them. `false`: may receive mailings. */
            blacklisted?: boolean;
            /**
             * @description One or more addresses of the subscriber, one of them of type `EXT_USER_ID`; at most one
             *     of that type is **[contract decision]** (the description names one and states no limit).
             */
            addresses: components["schemas"]["SubscriberAddress"][];
            parameterValues?: components["schemas"]["ParameterValue"][];
            tagValues?: components["schemas"]["TagValue"][];
        };
        /**
         * @description The body of a successful creation is not specified by the service; this schema stays open.
         *     Keep the `EXT_USER_ID` address you sent: it identifies the subscriber from now on.
         */
        SubscriberCreateResult: {
            [key: string]: unknown;
        };
        /**
         * @description Identifier of the scheduling request (UUID-like: the service issues UUIDs), unique per
         *     request: a second request with the same value gives 400 `requestId-is-not-unique`, which is
         *     also how a client learns that an earlier attempt whose response was lost was accepted. Any
         *     non-empty string is accepted, this contract's decision on an open point: a service that
         *     refuses a requestId that is no UUID follows the description as well, so send UUIDs.
         * @example 5b1c7a8e-3f2d-4c6b-9a0e-1d2f3a4b5c6d
         */
        RequestId: string;
        /**
         * Format: int64
         * @description Identifier of an existing cascade. Some examples of the public docs show it as a numeric
         *     string; the service's description says integer, and so does this contract. That it is at
         *     least 1 and fits in 64 bits is **[contract decision]**: the description says only "integer"
         *     (identifiers are positive, as the public docs' numbers are, and held as long).
         * @example 1001
         */
        CascadeId: number;
        /** @description Selects the recipient. */
        SubscriberFilter: {
            /**
             * @description Address of the recipient, for example a phone number for `PHONE`.
             * @example 79001234567
             */
            address: string;
            type: components["schemas"]["AddressType"];
        };
        /**
         * @description Content of type `TEXT` needs a non-empty `text` (400 `text-not-specified`). Missing
         *     `contentType` gives 400 `contentType-not-specified`.
         */
        TextContentRule: {
            contentType: unknown;
            text?: unknown;
        };
        /**
         * @description The Viber content types the description names ("for example TEXT (also image)").
         * @enum {string}
         */
        KnownViberContentType: "TEXT" | "IMAGE";
        /**
         * @description Content for the Viber channel. The content types are an open set ("for example TEXT (also
         *     image)"); the fields of image content are not specified. A button is `caption` (its label)
         *     with `action` (what it opens): a button with no action gives 400 `action-not-specified` and
         *     an empty caption 400 `caption-not-specified`.
         */
        ViberContent: {
            contentType: (components["schemas"]["KnownViberContentType"] | (string & {})) | undefined;
            /** @example Your order 1234 is ready for pickup. */
            text?: string;
            /**
             * @description Label of the button.
             * @example Track order
             */
            caption?: string;
            /**
             * @description Action of the button, for example the URL it opens.
             * @example https://shop.example.org/orders/1234
             */
            action?: string;
        };
        /**
         * @description The WhatsApp content types the public docs show [public docs].
         * @enum {string}
         */
        KnownWhatsAppContentType: "TEXT" | "IMAGE" | "DOCUMENT" | "VIDEO" | "AUDIO";
        /**
         * @description A file sent with the message [public docs]; `text` is ignored when an attachment is present.
         *     A document needs a `name` (400 `attachmentName-not-specified`) of at most 70 characters
         *     (400 `attachmentName-is-too-long`).
         */
        WhatsAppAttachment: {
            /**
             * Format: uri
             * @description Address of the file [public docs]. That it is a URI is **[contract decision]**: the docs
             *     show URLs and state no format.
             * @example https://files.example.org/invoice-1234.pdf
             */
            url: string;
            /** @example invoice-1234.pdf */
            name?: string;
            /**
             * @description Size in bytes [public docs]. That it is not negative is **[contract decision]**: a size
             *     in bytes cannot be, and no limit is stated.
             */
            size?: number;
        };
        /**
         * @description A location. When coordinates are given both are needed: 400 `latitude-not-specified` or
         *     `longitude-not-specified` otherwise.
         */
        WhatsAppLocation: {
            /**
             * @description Degrees [public docs]. The range is **[contract decision]**: that of a latitude on
             *     Earth; no range is stated.
             */
            latitude: number;
            /**
             * @description Degrees [public docs]. The range is **[contract decision]**: that of a longitude on
             *     Earth; no range is stated.
             */
            longitude: number;
            /** @description The place's address [public docs]. Its type is **[contract decision]**: no source gives one. */
            address?: string;
        };
        /**
         * @description The kinds of WhatsApp template button the public docs name ("e.g." URL, PHONE, QUICK_REPLY) [public docs].
         * @enum {string}
         */
        KnownButtonType: "URL" | "PHONE" | "QUICK_REPLY";
        /** @description A button of a WhatsApp template [public docs]. */
        KeyboardButton: {
            /** @description Label of the button. Its type is **[contract decision]**, as are those of `url` and `phone`: no source gives them. */
            text?: string;
            /** @description Kind of button, an open set; URL, PHONE and QUICK_REPLY are the kinds named. */
            buttonType: components["schemas"]["KnownButtonType"] | (string & {});
            /** @description Address a URL button opens. Its type is **[contract decision]**. */
            url?: string;
            /** @description Number a PHONE button calls. Its type is **[contract decision]**. */
            phone?: string;
            /** @description Code sent back when a quick-reply button is pressed. */
            payload?: string;
        };
        /**
         * @description Buttons of a WhatsApp template: at most 10, of which at most 2 URL buttons and at most 1
         *     PHONE button. These limits hold for all the buttons of the template together, across rows:
         *     an implementation checks the concatenation of every row's `buttons` against this schema.
         *     A breach gives 400 `button-validation-error`. (The type limits are written as
         *     `if contains then maxContains`, nested in one `if/then/else`, rather than `minContains: 0`,
         *     which Prism's validator does not honour, or an `allOf`, which some generators read as
         *     `unknown`.)
         */
        KeyboardButtons: components["schemas"]["KeyboardButton"][];
        /**
         * @description Buttons of a WhatsApp template, in rows [public docs]. The limits of `KeyboardButtons` apply
         *     to all rows together; JSON Schema cannot add up across rows, so this schema checks each row
         *     and an implementation checks the whole.
         */
        WhatsAppKeyboard: {
            rows: {
                buttons: components["schemas"]["KeyboardButtons"];
            }[];
        };
        /**
         * @description An interactive list of a WhatsApp message. The title and the subtitle of each item are at
         *     most 24 characters, spaces included (400 `template-parameter-is-not-valid`). Other fields of
         *     the list are not specified.
         */
        ListPicker: {
            sections?: {
                /** @description Title of a section. Its type is **[contract decision]**: no source gives one. */
                title?: string;
                items?: {
                    title?: string;
                    subtitle?: string;
                }[];
            }[];
        };
        /**
         * @description Content for the WhatsApp channel [public docs]. The content types are an open set. Media
         *     content (`IMAGE`, `DOCUMENT`, `VIDEO`, `AUDIO`) carries an `attachment`; a document's attachment needs a name. The options
         *     `messageActivitySharing: true` and `useMarketingMessagesApi: false` cannot be combined
         *     (400 `mm-api-options-invalid-combination`).
         */
        WhatsAppContent: {
            contentType: (components["schemas"]["KnownWhatsAppContentType"] | (string & {})) | undefined;
            /** @example Your order 1234 is ready for pickup. */
            text?: string;
            attachment?: components["schemas"]["WhatsAppAttachment"];
            location?: components["schemas"]["WhatsAppLocation"];
            /**
             * @description Header of a template [public docs]; fields other than `text` are not specified. Its type
             *     and its text's are **[contract decision]**: no source gives them.
             */
            header?: {
                /** @description The header's text. Its type is **[contract decision]**. */
                text?: string;
            } & {
                [key: string]: unknown;
            };
            /**
             * @description Footer of a template [public docs]; fields other than `text` are not specified. Its type
             *     and its text's are **[contract decision]**: no source gives them.
             */
            footer?: {
                /** @description The footer's text. Its type is **[contract decision]**. */
                text?: string;
            } & {
                [key: string]: unknown;
            };
            keyboard?: components["schemas"]["WhatsAppKeyboard"];
            listPicker?: components["schemas"]["ListPicker"];
            /** @description Cannot be `true` while `useMarketingMessagesApi` is `false`. */
            messageActivitySharing?: boolean;
            /**
             * @description Send through the Marketing Messages API. Left out, it is not `false`: it does not
             *     conflict with `messageActivitySharing: true` (this contract's decision on an open point).
             */
            useMarketingMessagesApi?: boolean;
        };
        /**
         * @description The SMS content type the public docs show [public docs].
         * @enum {string}
         */
        KnownSmsContentType: "TEXT";
        /**
         * @description Content for the SMS channel [public docs]. The content types are an open set (`TEXT` is the
         *     one shown). The longest allowed text is not specified.
         */
        SmsContent: {
            contentType: (components["schemas"]["KnownSmsContentType"] | (string & {})) | undefined;
            /** @example Your order 1234 is ready for pickup. */
            text?: string;
        };
        /**
         * @description Per-channel content, one entry for each channel stage of the cascade. Missing or empty
         *     content gives 400 `content-not-specified`.
         */
        CascadeContent: {
            viberContent?: components["schemas"]["ViberContent"];
            whatsappContent?: components["schemas"]["WhatsAppContent"];
            smsContent?: components["schemas"]["SmsContent"];
        };
        /**
         * @description A message to send through a cascade. `content` needs one entry for each channel stage of the
         *     cascade and no entry for a channel that is not a stage; both violations are reported together
         *     in one 400 `cascade-scheduling-request-is-not-valid` whose `detail` lists them. Each entry must
         *     match the template of its channel (400 `matched-template-not-found` otherwise). Which fields
         *     are required beyond those named by the error codes is not shown; this schema requires
         *     `requestId`, `cascadeId`, `subscriberFilter` and `content`.
         */
        CascadeScheduleRequest: {
            requestId: components["schemas"]["RequestId"];
            cascadeId: components["schemas"]["CascadeId"];
            subscriberFilter: components["schemas"]["SubscriberFilter"];
            /**
             * Format: date-time
             * @description When to send; absent means now [public docs].
             */
            startTime?: string;
            content: components["schemas"]["CascadeContent"];
        };
        /**
         * @description The request was accepted [public docs]: the body carries the `requestId` of the request. Other
         *     fields are not specified.
         */
        CascadeScheduleResult: {
            requestId: components["schemas"]["RequestId"];
        };
        /**
         * @description Codes of a failed delivery (status `UNDELIVERED`):
         *
         *     | Code | Meaning |
         *     |---|---|
         *     | `not-template-match` | The message does not match an allowed template. |
         *     | `too-long-message` | The message exceeds the length limit. |
         *     | `media-request-failed` | A file could not be loaded. |
         *     | `error-subject-unknown` | The sender signature is not allowed for the client; all signatures must be activated first. |
         *     | `error-address-format` | The subscriber number has a wrong format. |
         *     | `duplicated` | An identical message was sent within 5 minutes (the public docs say 20; the service's description wins). |
         * @enum {string}
         */
        KnownDeliveryErrorCode: "not-template-match" | "too-long-message" | "media-request-failed" | "error-subject-unknown" | "error-address-format" | "duplicated";
        /** @description A delivery error code. Other codes may come; accept them. */
        DeliveryErrorCode: components["schemas"]["KnownDeliveryErrorCode"] | (string & {});
        /**
         * @description Delivery statuses this contract knows. `UNDELIVERED` (a failed delivery, with an error code)
         *     is from the service's description; the others are from the public docs [public docs].
         * @enum {string}
         */
        KnownDeliveryStatus: "UNDELIVERED" | "SENT" | "DELIVERED" | "READ" | "FAILED" | "CANCELLED" | "DELAYED" | "ENQUEUED" | "EXPIRED";
        /** @description A delivery status, in upper case. Other statuses may come; accept them. */
        DeliveryStatus: components["schemas"]["KnownDeliveryStatus"] | (string & {});
        /**
         * @description A delivery result posted to the account's callback URL. The field list is from the public
         *     docs [public docs]; the service's description does not show the payload. `messageId`,
         *     `status` and `statusAt` are required by this contract **[contract decision]**; a failed
         *     delivery (`UNDELIVERED`) carries an error code, and a code of the description's list comes
         *     with that status alone (the description). Other fields may come; accept them.
         */
        StatusCallback: {
            /** @description The `requestId` of the scheduling request; null for a message not sent by this API. */
            requestId?: components["schemas"]["RequestId"] | null;
            /**
             * Format: int64
             * @example 700123456
             */
            messageId: number;
            /** @description The cascade of the message, as a number or a numeric string (the public docs show both) [public docs]. */
            cascadeId?: components["schemas"]["CascadeId"] | string;
            /** @description The stage of the cascade that sent the message (UUID-like; any non-empty string is accepted). */
            cascadeStageUUID?: string;
            /** @description The sender signature (subject) the message was sent with. */
            subject?: string;
            /** Format: int64 */
            subjectId?: number;
            status: components["schemas"]["DeliveryStatus"];
            /**
             * @description When the status was reached, ISO 8601 [public docs]. Whether it carries a zone is not
             *     published: a value without one is accepted.
             * @example 2030-01-15T09:30:04Z
             */
            statusAt: string;
            /** @description The delivery error code; null when there is none. */
            error?: components["schemas"]["DeliveryErrorCode"] | null;
            comment?: string | null;
            /** @description WhatsApp payment data [public docs]; its fields are not specified. */
            paymentData?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description The channel types the description shows ("Channel types seen").
         * @enum {string}
         */
        KnownChannelType: "VIBER" | "WHATSAPP" | "SMS";
        /**
         * @description Channel of a cascade stage. The description lists the types it has seen, not a closed set:
         *     any other upper-case string is accepted here.
         */
        ChannelType: components["schemas"]["KnownChannelType"] | (string & {});
        /** @description A stage of a cascade. Fields beyond the identifier and the channel type are not specified. */
        CascadeStage: {
            /**
             * @description Stage identifier (UUID-like; any non-empty string is accepted), named in the violations of the cascade validation error.
             * @example 6f1d2c3b-0a4e-4b5f-8c7d-1e2f3a4b5c01
             */
            uuid: string;
            channel: components["schemas"]["ChannelType"];
        };
    };
    responses: {
        /**
         * @description Any other error. The set of errors may be extended (the description, section 7.1): handle a
         *     code you do not know as a generic error of its HTTP status.
         */
        OtherError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The integrator token is missing, wrong or expired. An expired token gives 401 [public docs];
         *     the code `auth-error` is **[contract decision]**: the description does not show how close
         *     threads authenticates.
         */
        IntegratorUnauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description No operation exists at the requested URL: `not-found` **[contract decision]** for this
         *     operation (the description lists the errors of schedule cascade only).
         */
        DecidedNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The URL exists but does not accept this HTTP method: `method-not-allowed`
         *     **[contract decision]** for this operation (the description lists the errors of schedule
         *     cascade only).
         */
        DecidedMethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description A server error, or a malformed request that no other code of the operation names (wrong
         *     placement, a missing or empty property without a code of its own, a body that is not JSON):
         *     `system-error` **[contract decision]** for this operation (the description lists the errors of
         *     schedule cascade only).
         */
        DecidedSystemError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description The API key is missing, wrong or expired. A wrong or expired key gives 401 `auth-error` (the
         *     description's words). A request with no key at all is refused; that it gets this answer too is
         *     this contract's decision on an open point (`missing-credential`).
         */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /** @description No operation exists at the requested URL. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /** @description The URL exists but does not accept this HTTP method. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /**
         * @description A server error. It may also occur on a malformed request (wrong placement, missing or empty
         *     properties, a body that is not JSON). Where an error code names the malformed property, this
         *     contract answers with that code, its decision on the open point below; 500 `system-error`
         *     follows the description as well.
         */
        SystemError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description The methods the URL accepts: `POST` for every path of this contract. HTTP requires it of every
         *     405 answer (RFC 9110, section 15.5.6: "The origin server MUST generate an Allow header field
         *     in a 405 response").
         */
        Allow: string;
    };
    pathItems: never;
}

type Schemas = components['schemas'];
type StatusCallback = Schemas['StatusCallback'];
type ChannelType = Schemas['ChannelType'];

interface FixtureStage {
    uuid: string;
    channel: ChannelType;
    subject: string;
    subjectId: number;
    /** false: the sender signature is not activated; delivery fails with error-subject-unknown. */
    subjectActive?: boolean;
    /** Texts this stage may send ({{n}} matches any text); another text fails with not-template-match. */
    templates?: string[];
}
interface Fixtures {
    apiKeys: Array<{
        key: string;
        balance: number;
    }>;
    integratorTokens: string[];
    cascades: Array<{
        id: number;
        stages: FixtureStage[];
    }>;
    threads: Array<{
        id: number;
        state: 'open' | 'closed';
        failOnClose?: boolean;
    }>;
    parameters: Array<{
        name: string;
        type: 'STRING' | 'ENUM' | 'DATE';
        values?: string[];
    }>;
    tags: string[];
    /** External identifiers (EXT_USER_ID) of existing subscribers. */
    subscribers: string[];
    usedRequestIds: string[];
    /** Per channel, the templates scheduled content must match (matched-template-not-found otherwise). */
    templates: Partial<Record<ChannelType, string[]>>;
    delivery: {
        phonePattern: string;
        unreachableMediaHostSuffixes: string[];
        maxTextLength: Partial<Record<ChannelType, number>>;
    };
}

/** Memory bounds of the sandbox (one vocabulary for startSandbox, createSandbox and the tests). */
interface SandboxLimits {
    /** How long a requestId is remembered (default a day). */
    requestIdWindowMs?: number;
    /** How many requestIds are remembered at most (default 100,000). */
    requestIds?: number;
    /** How many messages the duplicate window remembers at most (default 100,000). */
    duplicateKeys?: number;
}
interface Thread {
    id: number;
    state: 'open' | 'closed';
    failOnClose: boolean;
    /** The comment of the call that closed it, and when. */
    comment?: string;
    closedAt?: string;
}

interface CallbackRecord {
    payload: StatusCallback;
    /** Each post: the receiver's HTTP status, or the network error. */
    attempts: Array<{
        at: string;
        status?: number;
        error?: string;
    }>;
    state: 'pending' | 'delivered' | 'failed' | 'no-callback-url';
}

/** What the control API (`GET /_sandbox/state`) and `state()` show of the sandbox's state. */
interface SandboxSnapshot {
    threads: Thread[];
    /** External identifiers of the subscribers. */
    subscribers: string[];
    /** How many requestIds are taken. */
    usedRequestIds: number;
}

interface StartSandboxOptions {
    /** Interface to listen on (default 127.0.0.1). */
    host?: string;
    /** Port to listen on (default 0: a free port; read it from `url`). */
    port?: number;
    /** The starting state: a fixtures object or the path of a fixtures JSON file (default: the bundled fixtures). */
    fixtures?: Fixtures | string;
    /** Where simulated delivery-status callbacks are posted; none are posted without it. */
    callbackUrl?: string;
    /** Waits before each repeat of a callback the receiver did not answer with 200 (default: the documented delays). */
    callbackRetryDelaysMs?: number[];
    /** Largest request body accepted (default 8 MiB); a larger one gets 413. */
    bodyLimitBytes?: number;
    /** Memory bounds: how long and how many requestIds are remembered, how many messages the duplicate window holds. */
    limits?: SandboxLimits;
    /**
     * `real` (default): the machine's time. `manual`: the sandbox's time starts at the machine's and moves only by
     * `clock.set()` and `clock.advance()` (or `POST /_sandbox/clock`), for every time-based rule of the sandbox.
     */
    clock?: ClockMode;
}
interface RunningSandbox extends AsyncDisposable {
    /** Base URL of the API, the docs page (`/`) and the document (`/openapi.json`), e.g. http://127.0.0.1:41234. */
    url: string;
    /** Back to the starting state: threads, subscribers, requestIds, callback log. */
    reset(): void;
    /** Every simulated status callback so far (newest last), with each post to the callback URL. */
    callbacks(): CallbackRecord[];
    /** Threads, subscribers and the count of used requestIds. */
    state(): SandboxSnapshot;
    /**
     * Resolves when no delivery or callback post is under way. With the manual clock: when the work due now has run
     * (what waits for a later time waits for `clock.advance()`).
     */
    idle(): Promise<void>;
    /** The sandbox's one clock: `now()`, and with `clock: 'manual'`, `set()` and `advance()`. */
    clock: SandboxClock;
    /** Stops listening and closes every connection. `await using` calls it too. */
    close(): Promise<void>;
}
/**
 * Starts the sandbox on `host:port` and resolves once it listens.
 *
 * ```ts
 * await using sandbox = await startSandbox();
 * const client = createMessagingClient({ baseUrl: sandbox.url, apiKey: 'sandbox-api-key' });
 * ```
 */
declare function startSandbox(options?: StartSandboxOptions): Promise<RunningSandbox>;

export { startSandbox };
export type { CallbackRecord, ClockMode, Fixtures, RunningSandbox, SandboxClock, SandboxLimits, SandboxSnapshot, StartSandboxOptions, Thread };
