// The registry's checks of a request: the caller's side of an exchange the suite did not send (recorded traffic, a
// proxy). Each says what the document refuses in a request; the answer the service owes it is the judge's to find.
import { documentViolation } from '../../core/schema-violations.ts';
import { documentOperations } from '../../core/examples.ts';
import { clip, mediaType, type PointCheck } from '../ground/model.ts';

const ofCaller = (checks: Omit<PointCheck<'request'>, 'family' | 'side'>[]) =>
  checks.map((c): PointCheck<'request'> => ({ ...c, family: 'request', side: 'caller' }));

export const requestChecks = ofCaller([
  {
    id: 'request-operation',
    holds: 'the method and path are an operation of the document',
    faults({ operation, atPath, request: { method }, path }) {
      if (operation) return [];
      if (atPath) {
        const fault = `a method the document does not give the path: ${method} ${path}`;
        return [{ fault, key: `method ${method} ${path}`, detail: `${path} takes ${atPath.method.toUpperCase()}` }];
      }
      const paths = documentOperations().map((o) => o.path);
      const detail = `the document's paths are ${paths.join(', ')}`;
      return [{ fault: `a path the document does not describe: ${path}`, key: `path ${path}`, detail }];
    },
  },
  {
    id: 'request-credentials',
    holds: "the request carries the credential its operation's security names",
    after: ['request-operation'],
    faults({ credentialGiven, operation: op }) {
      if (credentialGiven) return [];
      const fault = `${op!.operationId} without the credential its security names (${op!.security.join(', ')})`;
      return [{ fault, detail: 'no credential' }];
    },
  },
  {
    id: 'request-content-type',
    holds: 'a body is sent as application/json',
    after: ['request-operation'],
    concerns: (r) => r.request.body !== undefined && r.request.body !== '',
    faults(r) {
      const type = mediaType(r.request);
      if (type === 'application/json') return [];
      const fault = `a body sent as ${JSON.stringify(type || 'no content type')}, where the document takes application/json`;
      return [{ fault, detail: `content-type ${JSON.stringify(r.request.headers['content-type'] ?? null)}` }];
    },
  },
  {
    id: 'request-json',
    holds: 'the body is JSON',
    after: ['request-operation', 'request-content-type'],
    faults(r) {
      if (r.json && r.body !== undefined) return [];
      const fault = r.json ? 'a request without the body its operation needs' : 'a request body that is not JSON';
      return [{ fault, detail: JSON.stringify(clip(r.request.body ?? '', 120)) }];
    },
  },
  {
    id: 'request-schema',
    holds: "the body is valid against the operation's request schema, the limits across rows included",
    after: ['request-operation', 'request-content-type', 'request-json'],
    faults(r) {
      const { operationId } = r.operation!;
      const refused = documentViolation(operationId, r.body);
      if (!refused) return [];
      const fault = `${operationId}: a request the document refuses (${refused.code})`;
      return [{ fault, key: `${operationId} ${refused.code}`, detail: clip(refused.detail, 300) }];
    },
  },
]);
