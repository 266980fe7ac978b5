import * as anthropic from './sdk-survey-anthropic.js';
import * as gemini from './sdk-survey-gemini.js';
import * as openai from './sdk-survey-openai.js';

/** One SDK union as the survey lists it: the values, and the heading of the table that must have their rows. */
export interface SurveyedSdkUnion {
  readonly union: string;
  readonly section: string;
  readonly values: readonly string[];
}

const ANTHROPIC = '## Anthropic Messages';
const RESPONSES = '## OpenAI Responses';
const CHAT = '## OpenAI Chat Completions';
const GEMINI = '## Gemini\n';
const INTERACTIONS = '## Gemini Interactions API';

/** Every SDK union sdk-survey-completeness.spec.ts holds docs/protocol-survey.md to, in the doc's order. */
export const SURVEYED_SDK_UNIONS: readonly SurveyedSdkUnion[] = [
  { union: 'RawMessageStreamEvent type', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_STREAM_EVENT_TYPES },
  { union: 'RawContentBlockStartEvent content_block type', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_START_BLOCK_TYPES },
  { union: 'RawContentBlockDelta type', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_DELTA_TYPES },
  { union: 'StopReason', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_STOP_REASONS },
  { union: 'BetaRawMessageStreamEvent type', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_BETA_STREAM_EVENT_TYPES },
  {
    union: 'BetaRawContentBlockStartEvent content_block type',
    section: ANTHROPIC,
    values: anthropic.SURVEYED_ANTHROPIC_BETA_START_BLOCK_TYPES,
  },
  { union: 'BetaRawContentBlockDelta type', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_BETA_DELTA_TYPES },
  { union: 'BetaStopReason', section: ANTHROPIC, values: anthropic.SURVEYED_ANTHROPIC_BETA_STOP_REASONS },
  { union: 'ResponseStreamEvent type', section: RESPONSES, values: openai.SURVEYED_OPENAI_RESPONSES_EVENT_TYPES },
  { union: 'ResponseOutputItem type', section: RESPONSES, values: openai.SURVEYED_OPENAI_RESPONSES_OUTPUT_ITEM_TYPES },
  { union: 'ChatCompletionChunk.Choice finish_reason', section: CHAT, values: openai.SURVEYED_OPENAI_CHAT_FINISH_REASONS },
  { union: 'ChatCompletionChunk.Choice.Delta fields', section: CHAT, values: openai.SURVEYED_OPENAI_CHAT_DELTA_FIELDS },
  { union: 'FinishReason', section: GEMINI, values: gemini.SURVEYED_GEMINI_FINISH_REASONS },
  { union: 'Part fields', section: GEMINI, values: gemini.SURVEYED_GEMINI_PART_FIELDS },
  { union: 'Interactions.InteractionSSEEvent event_type', section: INTERACTIONS, values: gemini.SURVEYED_INTERACTIONS_EVENT_TYPES },
  { union: 'Interactions.Step type', section: INTERACTIONS, values: gemini.SURVEYED_INTERACTIONS_STEP_TYPES },
  { union: 'Interactions.StepDelta delta type', section: INTERACTIONS, values: gemini.SURVEYED_INTERACTIONS_DELTA_TYPES },
];
