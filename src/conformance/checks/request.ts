// The registry's checks of a request: the caller's side of an exchange the suite did not send (recorded traffic, a
// proxy). Each says what the document refuses in a request; the answer the service owes it is the judge's to find.
import { documentViolation } from '../../core/schema-violations.ts';
import { documentOperations } from '../../core/examples.ts';
import { mediaType, type PointCheck } from '../ground/model.ts';

export const requestChecks: PointCheck<'request'>[] = [
  {
    id: 'request-operation',
    family: 'request',
    side: 'caller',
    holds: 'the method and path are an operation of the document',
    faults: (r) =>
      r.operation
        ? []
        : r.atPath
          ? [
              {
                fault: `a method the document does not give the path: ${r.request.method} ${r.path}`,
                key: `method ${r.request.method} ${r.path}`,
                detail: `${r.path} takes ${r.atPath.method.toUpperCase()}`,
              },
            ]
          : [
              {
                fault: `a path the document does not describe: ${r.path}`,
                key: `path ${r.path}`,
                detail: `the document's paths are ${documentOperations()
                  .map((o) => o.path)
                  .join(', ')}`,
              },
            ],
  },
  {
    id: 'request-credentials',
    family: 'request',
    side: 'caller',
    holds: "the request carries the credential its operation's security names",
    after: ['request-operation'],
    faults: (r) =>
      r.credentialGiven
        ? []
        : [
            {
              fault: `${r.operation!.operationId} without the credential its security names (${r.operation!.security.join(', ')})`,
              detail: 'no credential',
            },
          ],
  },
  {
    id: 'request-content-type',
    family: 'request',
    side: 'caller',
    holds: 'a body is sent as application/json',
    after: ['request-operation'],
    concerns: (r) => r.request.body !== undefined && r.request.body !== '',
    faults: (r) =>
      mediaType(r.request) === 'application/json'
        ? []
        : [
            {
              fault: `a body sent as ${JSON.stringify(mediaType(r.request) || 'no content type')}, where the document takes application/json`,
              detail: `content-type ${JSON.stringify(r.request.headers['content-type'] ?? null)}`,
            },
          ],
  },
  {
    id: 'request-json',
    family: 'request',
    side: 'caller',
    holds: 'the body is JSON',
    after: ['request-operation', 'request-content-type'],
    faults: (r) =>
      r.json && r.body !== undefined
        ? []
        : [
            {
              fault: r.json ? 'a request without the body its operation needs' : 'a request body that is not JSON',
              detail: JSON.stringify((r.request.body ?? '').slice(0, 120)),
            },
          ],
  },
  {
    id: 'request-schema',
    family: 'request',
    side: 'caller',
    holds: "the body is valid against the operation's request schema, the limits across rows included",
    after: ['request-operation', 'request-content-type', 'request-json'],
    faults(r) {
      const refused = documentViolation(r.operation!.operationId, r.body);
      if (!refused) return [];
      return [
        {
          fault: `${r.operation!.operationId}: a request the document refuses (${refused.code})`,
          key: `${r.operation!.operationId} ${refused.code}`,
          detail: refused.detail.slice(0, 300),
        },
      ];
    },
  },
];
