// createSubscriber: parameters and tags must exist on the account; the EXT_USER_ID address is unique.
import type { CreateSubscriberRequest } from '../../core/types.ts';
import { problem } from '../reply.ts';
import type { Handler } from './context.ts';

export const createSubscriber: Handler = (state, body) => {
  const request = body as CreateSubscriberRequest;
  for (const [i, p] of (request.parameterValues ?? []).entries()) {
    const definition = state.parameters.get(p.name);
    if (!definition)
      return problem(
        400,
        'parameter-not-found',
        `parameterValues[${i}].name is ${p.name}; no such parameter is defined.`,
      );
    if (definition.type !== p.valueType) {
      return problem(
        400,
        'parameter-value-is-not-valid',
        `parameterValues[${i}].valueType is ${p.valueType}; parameter ${p.name} is of type ${definition.type}.`,
      );
    }
    if (definition.type === 'ENUM' && !definition.values!.includes(p.value)) {
      return problem(
        400,
        'parameter-value-is-not-valid',
        `parameterValues[${i}].value is ${p.value}; expected one of ${definition.values!.join(', ')}.`,
      );
    }
  }
  for (const [i, t] of (request.tagValues ?? []).entries()) {
    if (!state.tags.has(t.name))
      return problem(400, 'tag-not-found', `tagValues[${i}].name is ${t.name}; no such tag was created.`);
  }
  const extUserId = request.addresses.find((a) => a.type === 'EXT_USER_ID')!.address;
  if (state.subscribers.has(extUserId)) {
    return problem(
      400,
      'subscriber-already-exists',
      `A subscriber with address ${extUserId} of type EXT_USER_ID exists.`,
    );
  }
  state.subscribers.set(extUserId, { extUserId, request });
  return { status: 200, body: {} };
};
