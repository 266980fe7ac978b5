import type { ProviderName } from '@llm-stream/contract';

/**
 * Records a live stream of each provider can carry anywhere without changing the answer. The conformance
 * suite inserts them at random record boundaries (and re-chunks the bytes) and requires the same events.
 */
export const CONFORMANCE_NOISE: Readonly<Record<ProviderName, readonly string[]>> = {
  /** Comments, pings and an unknown event type. */
  anthropic: [
    ': keep-alive\n\n',
    'event: ping\ndata: {"type": "ping"}\n\n',
    'event: content_block_flash\ndata: {"type":"content_block_flash","index":0}\n\n',
    ':\n\n',
  ],
  /**
   * Comments, a Vertex usage object without counts, an empty text part, a part type the adapter skips (which
   * must not split the text block around it) and a second candidate; CRLF framing like the rest of the stream.
   */
  gemini: [
    ': keep-alive\r\n\r\n',
    'data: {"usageMetadata": {"trafficType": "ON_DEMAND"}}\r\n\r\n',
    'data: {"candidates": [{"content": {"parts": [{"text": ""}],"role": "model"},"index": 0}]}\r\n\r\n',
    'data: {"candidates": [{"content": {"parts": [{"executableCode": {"language": "PYTHON","code": "print(1)"}}],"role": "model"},"index": 0}]}\r\n\r\n',
    'data: {"candidates": [{"content": {"parts": [{"text": "another candidate"}],"role": "model"},"index": 1}]}\r\n\r\n',
  ],
  /**
   * Keep-alive comments (DeepSeek, OpenRouter), Azure's prompt-filter preamble (`choices: []` without usage), a
   * second choice of an `n > 1` request and an unknown delta field. The inserted chunks carry no `id` or
   * `model`, which would otherwise become the response's if they came first.
   */
  'openai-chat': [
    ': keep-alive\n\n',
    ': OPENROUTER PROCESSING\n\n',
    ':\n\n',
    'data: {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}\n\n',
    'data: {"object":"chat.completion.chunk","created":1,"choices":[{"index":1,"delta":{"content":"other choice"},"finish_reason":null}]}\n\n',
    'data: {"object":"chat.completion.chunk","created":1,"choices":[{"index":0,"delta":{"audio":{"id":"audio_1"}},"finish_reason":null}],"obfuscation":"x"}\n\n',
  ],
  /** Comments, an in_progress status update and an event type the adapter does not know. */
  'gemini-interactions': [
    ': keep-alive\n\n',
    'event: interaction.status_update\ndata: {"event_type":"interaction.status_update","interaction_id":"v1_noise","status":"in_progress","event_id":"evt_noise_1"}\n\n',
    'event: step.flash\ndata: {"event_type":"step.flash","index":0,"event_id":"evt_noise_2"}\n\n',
    ':\n\n',
  ],
  /** Comments, a repeated in_progress event and an event type the adapter does not know. */
  'openai-responses': [
    ': keep-alive\n\n',
    ':\n\n',
    'event: response.in_progress\ndata: {"type":"response.in_progress","response":{"status":"in_progress"},"sequence_number":99}\n\n',
    'event: response.audio.transcript.delta\ndata: {"type":"response.audio.transcript.delta","delta":"x","sequence_number":98}\n\n',
  ],
};
