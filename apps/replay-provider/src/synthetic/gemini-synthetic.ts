import type { Frame } from '../frame.js';
import type { SyntheticSpec } from '../scenario.js';
import { geminiRecord } from './google-json.js';
import { estimateTokens, randomAlphanumeric, stampedText } from './synthetic-text.js';

const MODEL_VERSION = 'gemini-2.5-flash';
const PROMPT_TOKENS = 12;
// gemini-2.5 models think by default; the usage reports it apart from the candidates (and in the total).
const THOUGHTS_TOKENS = 64;

/**
 * A completed `streamGenerateContent?alt=sse` stream in the shape of the recorded transcripts
 * (https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent): one
 * `GenerateContentResponse` per delta with cumulative `usageMetadata`, the last one carrying
 * `finishReason: "STOP"` (Gemini has no `[DONE]`), in Google's JSON spacing and CRLF framing.
 */
export function* geminiSynthetic(spec: SyntheticSpec): Generator<Frame> {
  const responseId = randomAlphanumeric(23);
  let candidatesTokens = 0;
  for (let index = 0; index < spec.frames; index += 1) {
    const last = index === spec.frames - 1;
    yield {
      delayMs: index === 0 ? 0 : spec.frameIntervalMs,
      render: () => {
        const text = stampedText(spec.textBytes);
        candidatesTokens += estimateTokens(text);
        return geminiRecord({
          candidates: [
            {
              content: { parts: [{ text }], role: 'model' },
              ...(last ? { finishReason: 'STOP' } : {}),
              index: 0,
            },
          ],
          usageMetadata: {
            promptTokenCount: PROMPT_TOKENS,
            candidatesTokenCount: candidatesTokens,
            totalTokenCount: PROMPT_TOKENS + candidatesTokens + THOUGHTS_TOKENS,
            promptTokensDetails: [{ modality: 'TEXT', tokenCount: PROMPT_TOKENS }],
            thoughtsTokenCount: THOUGHTS_TOKENS,
          },
          modelVersion: MODEL_VERSION,
          responseId,
        });
      },
    };
  }
}
