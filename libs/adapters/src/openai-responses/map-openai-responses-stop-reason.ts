import type { StopReason } from '@llm-stream/contract';

/** What the stream showed, since the Responses API has no finish reason to say it. */
export interface OpenAiResponsesOutputSummary {
  /** A function_call item was streamed. */
  readonly functionCall: boolean;
  /** A refusal content part was streamed. */
  readonly refusal: boolean;
}

export interface OpenAiResponsesStopReason {
  readonly stop_reason: StopReason;
  /** The final `status`, or `incomplete_details.reason` for an incomplete response. */
  readonly provider_stop_reason: string;
}

/**
 * The Responses API has no finish reason (fact 20 of the kit README): a completed response ended the turn,
 * unless it called a function (tool_use, which wins: the caller must act on it) or refused (refusal).
 * An incomplete response says why in `incomplete_details.reason`: `max_output_tokens` or `content_filter`;
 * anything newer is `other`, with the raw reason kept.
 * https://platform.openai.com/docs/api-reference/responses/object#responses/object-incomplete_details
 */
export function mapOpenAiResponsesCompleted(output: OpenAiResponsesOutputSummary): OpenAiResponsesStopReason {
  const stop_reason: StopReason = output.functionCall ? 'tool_use' : output.refusal ? 'refusal' : 'end_turn';
  return { stop_reason, provider_stop_reason: 'completed' };
}

export function mapOpenAiResponsesIncomplete(reason: string | undefined): OpenAiResponsesStopReason {
  switch (reason) {
    case 'max_output_tokens':
      return { stop_reason: 'max_tokens', provider_stop_reason: reason };
    case 'content_filter':
      return { stop_reason: 'content_filter', provider_stop_reason: reason };
    case undefined:
      return { stop_reason: 'other', provider_stop_reason: 'incomplete' };
    default:
      return { stop_reason: 'other', provider_stop_reason: reason };
  }
}
