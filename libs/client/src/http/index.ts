// @llm-stream/client/http: the gateway's HTTP/SSE API over fetch and web streams. Nothing here may import
// NATS (src/http/no-nats.spec.ts checks the whole import graph of this entry point).
export {
  LlmStreamHttpClient,
  type CreateStreamOptions,
  type LlmStreamHttpClientOptions,
  type ResumeStreamOptions,
} from './llm-stream-http-client.js';
export { HttpEventStream, type HttpStreamStats } from './http-event-stream.js';
export { DEFAULT_RESUME_POLICY, type ResumePolicy } from './resume-backoff.js';
export { EventOrderCheck, type EventOrderCheckOptions, type OrderVerdict } from './event-order-check.js';
export { GATEWAY_ERROR_CODES, isGatewayErrorCode, type GatewayErrorCode } from './gateway-error-code.js';
export { GatewayError } from './gateway-error.js';
export { HttpStreamError, type HttpStreamErrorCode } from './http-stream-error.js';
export type { GatewayHttpOptions } from './gateway-http.js';
export {
  streamOutcome,
  type ExecutableToolCall,
  type StreamOutcome,
  type UnexecutableReason,
  type UnexecutableToolCall,
} from '../stream-outcome.js';
