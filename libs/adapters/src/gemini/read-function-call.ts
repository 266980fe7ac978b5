import { err, ok, type Result } from '@llm-stream/contract';
import { isObject, type JsonObject } from '../shared/json-payload.js';

/** A `functionCall` part's fields, checked. https://ai.google.dev/api/caching#FunctionCall */
export interface GeminiFunctionCall {
  /** Present on a whole call and on the first part of a Vertex streamed call only. */
  readonly name?: string;
  /** The call id, when the API sends one (the client must echo it in the functionResponse). */
  readonly id?: string;
  /** The parsed arguments of a whole call. */
  readonly args?: JsonObject;
  /** Vertex AI `streamFunctionCallArguments` only: values at JSON paths. */
  readonly partialArgs?: readonly unknown[];
  /** Vertex AI only: more parts of this call follow. */
  readonly willContinue: boolean;
}

/** Reads a `functionCall` value; a field of the wrong type is an error, an absent one is left out. */
export function readFunctionCall(value: unknown): Result<GeminiFunctionCall, string> {
  if (!isObject(value)) return err('functionCall is not an object');
  const { name, id, args, partialArgs, willContinue } = value;
  if (name !== undefined && typeof name !== 'string') return err('functionCall.name is not a string');
  if (id !== undefined && typeof id !== 'string') return err('functionCall.id is not a string');
  if (args !== undefined && !isObject(args)) return err('functionCall.args is not an object');
  if (partialArgs !== undefined && !Array.isArray(partialArgs)) return err('functionCall.partialArgs is not an array');
  if (willContinue !== undefined && typeof willContinue !== 'boolean') return err('functionCall.willContinue is not a boolean');
  return ok({
    ...(name !== undefined && { name }),
    ...(id !== undefined && { id }),
    ...(args !== undefined && { args }),
    ...(partialArgs !== undefined && { partialArgs: partialArgs as readonly unknown[] }),
    willContinue: willContinue === true,
  });
}
