import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type * as anthropic from './sdk-survey-anthropic.js';
import type * as gemini from './sdk-survey-gemini.js';
import type * as openai from './sdk-survey-openai.js';
import { SURVEYED_SDK_UNIONS } from './sdk-survey.js';
import { surveyTableRows, valuesWithoutRow } from './survey-table-rows.js';

/**
 * `true` only when every value of the SDK's union is listed: a value a new SDK version adds makes the
 * `= true` below a type error that names it (`... not assignable to type '{ unlisted: "pause_turn"; }'`),
 * so `tsc -b` fails until the value is listed (and, by the runtime test, given a row in
 * docs/protocol-survey.md). Listing a value the SDK lacks is a type error of the list itself (`satisfies`).
 */
type ListsAll<SdkUnion, Listed> = [Exclude<SdkUnion, Listed>] extends [never] ? true : { unlisted: Exclude<SdkUnion, Listed> };
type Listed<List extends readonly string[]> = List[number];

export const anthropicStreamEventTypesListed: ListsAll<anthropic.AnthropicStreamEventType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_STREAM_EVENT_TYPES>> = true;
export const anthropicStartBlockTypesListed: ListsAll<anthropic.AnthropicStartBlockType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_START_BLOCK_TYPES>> = true;
export const anthropicDeltaTypesListed: ListsAll<anthropic.AnthropicDeltaType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_DELTA_TYPES>> = true;
export const anthropicStopReasonsListed: ListsAll<anthropic.AnthropicStopReason, Listed<typeof anthropic.SURVEYED_ANTHROPIC_STOP_REASONS>> = true;
export const anthropicBetaStreamEventTypesListed: ListsAll<anthropic.AnthropicBetaStreamEventType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_BETA_STREAM_EVENT_TYPES>> = true;
export const anthropicBetaStartBlockTypesListed: ListsAll<anthropic.AnthropicBetaStartBlockType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_BETA_START_BLOCK_TYPES>> = true;
export const anthropicBetaDeltaTypesListed: ListsAll<anthropic.AnthropicBetaDeltaType, Listed<typeof anthropic.SURVEYED_ANTHROPIC_BETA_DELTA_TYPES>> = true;
export const anthropicBetaStopReasonsListed: ListsAll<anthropic.AnthropicBetaStopReason, Listed<typeof anthropic.SURVEYED_ANTHROPIC_BETA_STOP_REASONS>> = true;
export const openAiResponsesEventTypesListed: ListsAll<openai.OpenAiResponsesEventType, Listed<typeof openai.SURVEYED_OPENAI_RESPONSES_EVENT_TYPES>> = true;
export const openAiResponsesOutputItemTypesListed: ListsAll<openai.OpenAiResponsesOutputItemType, Listed<typeof openai.SURVEYED_OPENAI_RESPONSES_OUTPUT_ITEM_TYPES>> = true;
export const openAiChatFinishReasonsListed: ListsAll<openai.OpenAiChatFinishReason, Listed<typeof openai.SURVEYED_OPENAI_CHAT_FINISH_REASONS>> = true;
export const openAiChatDeltaFieldsListed: ListsAll<openai.OpenAiChatDeltaField, Listed<typeof openai.SURVEYED_OPENAI_CHAT_DELTA_FIELDS>> = true;
export const geminiFinishReasonsListed: ListsAll<gemini.GeminiFinishReason, Listed<typeof gemini.SURVEYED_GEMINI_FINISH_REASONS>> = true;
export const geminiPartFieldsListed: ListsAll<gemini.GeminiPartField, Listed<typeof gemini.SURVEYED_GEMINI_PART_FIELDS>> = true;
export const interactionsEventTypesListed: ListsAll<gemini.InteractionsEventType, Listed<typeof gemini.SURVEYED_INTERACTIONS_EVENT_TYPES>> = true;
export const interactionsStepTypesListed: ListsAll<gemini.InteractionsStepType, Listed<typeof gemini.SURVEYED_INTERACTIONS_STEP_TYPES>> = true;
export const interactionsDeltaTypesListed: ListsAll<gemini.InteractionsDeltaType, Listed<typeof gemini.SURVEYED_INTERACTIONS_DELTA_TYPES>> = true;

const survey = readFileSync(resolve(__dirname, '../../../docs/protocol-survey.md'), 'utf8');

describe('docs/protocol-survey.md against the pinned SDKs', () => {
  it.each(SURVEYED_SDK_UNIONS.map((listed) => [listed.union, listed] as const))('has a row for every %s value', (_union, listed) => {
    const rows = surveyTableRows(survey, listed.section);
    expect(rows.length).toBeGreaterThan(0);
    expect(valuesWithoutRow(rows, listed.values)).toEqual([]);
  });

  it('finds a value only in a backticked table row of its own section', () => {
    const markdown = '## A\n\n| `kept` | x |\n\n`prose` outside a table\n\n## B\n\n| `other` | y |\n';
    const rows = surveyTableRows(markdown, '## A');
    expect(valuesWithoutRow(rows, ['kept', 'prose', 'other', 'kep'])).toEqual(['prose', 'other', 'kep']);
  });
});
