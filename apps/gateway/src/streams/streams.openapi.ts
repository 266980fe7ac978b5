import { applyDecorators } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery } from '@nestjs/swagger';
import { CONTRACT_SCHEMA_FILE_NAME, CONTRACT_SCHEMA_ID } from '@llm-stream/contract';
import { ApiErrorResponses } from '@llm-stream/nest-kit';
import type { ApiErrorCode } from '../errors/api-error.js';

// The OpenAPI description of the streams routes, beside the controller so that it only delegates. Each route
// lists every error it can answer: the e2e suite compares the codes with ApiErrorCode and hits every status.

const EVENT_STREAM = `A text/event-stream of contract events, one SSE record each: \`id: <seq>\`, \`event: <type>\`,
\`data: <the event as JSON>\`, and \`: keep-alive\` comment lines while nothing happens. Every data line is one
event of the contract's JSON Schema (${CONTRACT_SCHEMA_ID}, published as libs/contract/schema/${CONTRACT_SCHEMA_FILE_NAME});
the last one is stream.done or stream.error.`;

const STREAM_ID_HEADER = { 'x-stream-id': { description: 'The stream id (`st_…`): resume or cancel with it.', schema: { type: 'string' } } } as const;

const STREAM_ID = ApiParam({ name: 'streamId', description: 'The `x-stream-id` of the stream.', schema: { type: 'string' } });

function eventStream(description: string): MethodDecorator {
  return applyDecorators(
    ApiProduces('text/event-stream', 'application/json'),
    ApiOkResponse({ description, headers: STREAM_ID_HEADER, content: { 'text/event-stream': { schema: { type: 'string', description: EVENT_STREAM } } } }),
  );
}

const INTERNAL: readonly ApiErrorCode[] = ['internal'];

export function CreateStreamDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'Starts a stream through a route', description: "Calls the route's upstream (a protocol name is its default route) with the provider's own request body." }),
    ApiParam({ name: 'route', description: 'A route name, or a protocol name (`openai-chat`, `openai-responses`, `anthropic`, `gemini`, `gemini-interactions`).', schema: { type: 'string' } }),
    ApiQuery({ name: 'model', required: false, description: 'The model, for a protocol whose body does not name it (gemini).', schema: { type: 'string' } }),
    ApiBody({ description: "The provider's own request (JSON; gzip, deflate or br Content-Encoding accepted).", schema: { type: 'object', additionalProperties: true } }),
    eventStream('The stream: its events from seq 1 until its terminal event.'),
    ApiErrorResponses<ApiErrorCode>({
      400: ['invalid_request', 'invalid_json'],
      401: ['unauthorized'],
      403: ['insufficient_scope', 'route_not_allowed'],
      404: ['unknown_provider'],
      413: ['body_too_large'],
      415: ['invalid_request'],
      500: INTERNAL,
      503: ['unavailable', 'overloaded'],
    }),
  );
}

export function ResumeStreamDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'Resumes a stream after an event', description: 'From the stored log, live or after the stream ended.' }),
    STREAM_ID,
    ApiHeader({ name: 'last-event-id', required: false, description: 'The seq of the last event received (0 or absent: from the start).' }),
    ApiQuery({ name: 'after', required: false, description: 'Last-Event-ID as a query parameter, for clients that cannot set headers.', schema: { type: 'string' } }),
    eventStream(
      'The events after Last-Event-ID, until the terminal event. For an id the stored log has not reached yet, the answer waits for an event above it; an id at the terminal event\'s seq gets no event.',
    ),
    ApiErrorResponses<ApiErrorCode>({ 400: ['invalid_request', 'beyond_end'], 401: ['unauthorized'], 403: ['insufficient_scope'], 404: ['not_found'], 500: INTERNAL, 503: ['unavailable'] }),
  );
}

export function CancelStreamDocs(): MethodDecorator {
  return applyDecorators(
    ApiOperation({ summary: 'Cancels a stream', description: 'The upstream request is aborted and the stream ends interrupted (client_cancelled).' }),
    STREAM_ID,
    ApiAcceptedResponse({
      description: 'The gateway that holds the stream is cancelling it.',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['stream_id', 'status'],
            additionalProperties: false,
            properties: { stream_id: { type: 'string' }, status: { type: 'string', enum: ['cancelling'] } },
          },
        },
      },
    }),
    ApiErrorResponses<ApiErrorCode>({ 401: ['unauthorized'], 403: ['insufficient_scope'], 404: ['not_found'], 409: ['already_ended'], 500: INTERNAL, 503: ['unavailable'] }),
  );
}
