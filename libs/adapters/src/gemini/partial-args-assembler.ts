import { err, ok, type Result } from '@llm-stream/contract';
import { isObject, type JsonObject } from '../shared/json-payload.js';
import { parseJsonPath, type JsonPathSegment } from './parse-json-path.js';
import { stringifyArguments } from './stringify-arguments.js';

export interface PartialArgError {
  readonly code: 'invalid_partial_arg';
  readonly message: string;
}

type Container = Record<string, unknown> | unknown[];

/**
 * Rebuilds the arguments of a Vertex AI streamed function call (`streamFunctionCallArguments`) from its
 * `partialArgs`: each entry sets one value at a JSONPath (`stringValue` / `numberValue` / `boolValue` /
 * `nullValue`); a string arrives in pieces while the entry says `willContinue: true`, and the next entry
 * for the same path (often `stringValue: ""` without `willContinue`) finishes it.
 * https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Content#PartialArg
 *
 * The object is the only copy of a call's arguments the adapter keeps: Vertex sends values, not JSON text,
 * so the text exists only once the call is complete ({@link text}). Objects have no prototype, so member
 * names such as `__proto__` are plain data; an index may only fill the next array slot, so a path like
 * `$.a[999999999]` cannot make the arguments huge.
 */
export class PartialArgsAssembler {
  private readonly root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  /** The path whose string value is still open (its last piece said willContinue). */
  private continuing: string | undefined;

  apply(arg: unknown): Result<void, PartialArgError> {
    if (!isObject(arg)) return invalid('a partialArgs entry is not an object');
    const jsonPath = arg['jsonPath'];
    if (typeof jsonPath !== 'string') return invalid('a partialArgs entry has no jsonPath string');
    const value = valueOf(arg);
    if (!value.ok) return value;
    // An entry without a value (a bare willContinue) changes nothing, not even an open string.
    if (value.value === undefined) return ok(undefined);
    const wasContinuing = this.continuing === jsonPath;
    this.continuing = undefined;
    const path = parseJsonPath(jsonPath);
    if (!path.ok) return invalid(path.error.message);
    const leaf = this.containerOf(path.value);
    if (!leaf.ok) return leaf;
    const { container, key } = leaf.value;
    let next = value.value.value;
    if (typeof next === 'string') {
      const previous = read(container, key);
      if (wasContinuing && typeof previous === 'string') next = previous + next;
      if (arg['willContinue'] === true) this.continuing = jsonPath;
    }
    return write(container, key, next);
  }

  /** The arguments as compact JSON text, as `JSON.stringify` writes them. */
  text(): Result<string, PartialArgError> {
    const text = stringifyArguments(this.root);
    return text.ok ? text : invalid(text.error);
  }

  /** Walks to the container of the path's last segment, creating objects and arrays on the way. */
  private containerOf(path: readonly JsonPathSegment[]): Result<{ container: Container; key: JsonPathSegment }, PartialArgError> {
    const last = path.at(-1);
    if (last === undefined) return invalid('a partialArgs entry sets the root ($), which must stay an object');
    if (typeof path[0] === 'number') return invalid('the arguments are an object, not an array');
    let container: Container = this.root;
    for (let at = 0; at < path.length - 1; at++) {
      const key = path[at] as JsonPathSegment;
      const wantArray = typeof path[at + 1] === 'number';
      let child = read(container, key);
      if (child === undefined) {
        child = wantArray ? [] : (Object.create(null) as Record<string, unknown>);
        const written = write(container, key, child);
        if (!written.ok) return written;
      }
      if (wantArray ? !Array.isArray(child) : !isContainerObject(child)) {
        return invalid(`the value at segment ${at + 1} is not ${wantArray ? 'an array' : 'an object'}`);
      }
      container = child as Container;
    }
    return ok({ container, key: last });
  }
}

/** The value of an entry: undefined when it carries none (a bare `willContinue`). */
function valueOf(arg: JsonObject): Result<{ value: unknown } | undefined, PartialArgError> {
  if ('stringValue' in arg) {
    return typeof arg['stringValue'] === 'string' ? ok({ value: arg['stringValue'] }) : invalid('stringValue is not a string');
  }
  if ('numberValue' in arg) {
    const number = arg['numberValue'];
    return typeof number === 'number' && Number.isFinite(number) ? ok({ value: number }) : invalid('numberValue is not a finite number');
  }
  if ('boolValue' in arg) {
    return typeof arg['boolValue'] === 'boolean' ? ok({ value: arg['boolValue'] }) : invalid('boolValue is not a boolean');
  }
  // google.protobuf.NullValue: `null` in proto3 JSON, "NULL_VALUE" as some SDKs write it.
  if ('nullValue' in arg) return ok({ value: null });
  return ok(undefined);
}

function read(container: Container, key: JsonPathSegment): unknown {
  if (Array.isArray(container)) return typeof key === 'number' ? container[key] : undefined;
  return typeof key === 'string' ? container[key] : undefined;
}

function write(container: Container, key: JsonPathSegment, value: unknown): Result<void, PartialArgError> {
  if (Array.isArray(container)) {
    if (typeof key !== 'number') return invalid(`member ${JSON.stringify(key)} of an array`);
    if (key > container.length) return invalid(`index ${key} skips elements of an array of ${container.length}`);
    container[key] = value;
    return ok(undefined);
  }
  if (typeof key !== 'string') return invalid(`index ${key} of an object`);
  container[key] = value;
  return ok(undefined);
}

function isContainerObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string): Result<never, PartialArgError> {
  return err({ code: 'invalid_partial_arg', message });
}
