// scheduleCascade: the rules in the order the description gives them (requestId, cascade, content
// per stage, buttons, templates, balance); an accepted message goes to the delivery simulation.
import type { CascadeScheduleRequest } from '../../core/types.ts';
import { allRowsButtonErrors } from '../../core/buttons.ts';
import { channelOf, knownContentTypes } from '../channels.ts';
import { problem } from '../reply.ts';
import type { Handler, Id } from './context.ts';

/** Ids in violation details carry group separators, as the service writes them. */
const grouped = (n: number) => n.toLocaleString('en-US');

export const scheduleCascade: Handler = (state, body, { exact, credentials, accept, now }) => {
  const request = body as CascadeScheduleRequest;
  if (state.requestIdTaken(request.requestId, now)) {
    return problem(400, 'requestId-is-not-unique', `requestId ${request.requestId} was used before.`);
  }
  const cascadeId = (exact as { cascadeId: Id }).cascadeId;
  const cascade = typeof cascadeId === 'number' ? state.cascades.get(cascadeId) : undefined;
  if (!cascade) return problem(400, 'cascade-not-found', `No cascade with id ${cascadeId}.`);

  // Every content key is for a channel, a known one or not: one the cascade has no stage for is a violation.
  const sent = Object.keys(request.content);
  const foreign = sent.filter((key) => {
    const channel = channelOf(key);
    return !cascade.stages.some((s) => s.channel === channel);
  });
  const missing = cascade.stages.filter((s) => !sent.some((key) => channelOf(key) === s.channel));
  if (foreign.length > 0 || missing.length > 0) {
    const violations = [
      ...foreign.map(
        (key) =>
          `Cascade has no stage for the content channel [cascadeTemplateId:${grouped(cascade.id)};contentChannelType:${channelOf(key)}]`,
      ),
      ...missing.map(
        (s) =>
          `Content is missing for the cascade stage [cascadeTemplateId:${grouped(cascade.id)};stageUUID:${s.uuid};channelType:${s.channel}]`,
      ),
    ].join('; ');
    return foreign.length > 0
      ? problem(
          400,
          'cascade-scheduling-request-not-valid',
          `Cascade scheduling request is not valid. Violations: ${violations}`,
        )
      : problem(
          400,
          'request-doesn’t-contain-content-for-all-cascade-stages',
          `Request does not contain content for all cascade stages. Violations: ${violations}`,
        );
  }

  const buttonErrors = allRowsButtonErrors(request);
  if (buttonErrors.length > 0) return problem(400, 'button-validation-error', buttonErrors.join('; '));
  for (const key of sent) {
    const entry = request.content[key as keyof typeof request.content] as { contentType: string; text?: string };
    // Content types are an open set; the sandbox has templates for the known ones only [contract decision].
    const known = knownContentTypes.get(key);
    if (known && !known.includes(entry.contentType)) {
      return problem(
        400,
        'matched-template-not-found',
        `content.${key}.contentType is ${entry.contentType}; the account has no ${channelOf(key)} template of that type.`,
      );
    }
    if (entry.contentType === 'TEXT' && !state.matchesTemplate(channelOf(key), entry.text)) {
      return problem(
        400,
        'matched-template-not-found',
        `content.${key} matches no ${channelOf(key)} template of the account.`,
      );
    }
  }
  const apiKey = credentials.apiKey;
  if (apiKey === undefined || (state.apiKeys.get(apiKey)?.balance ?? 0) <= 0)
    return problem(400, 'out-of-balance', "The account's balance is insufficient.");

  state.takeRequestId(request.requestId, now);
  accept({ request, acceptedAt: now });
  return { status: 200, body: { requestId: request.requestId } };
};
