import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { ApiError } from '../errors/api-error.js';
import { exceedsJsonDepth } from './json-depth.js';

export interface JsonBodyLimits {
  /** MAX_BODY_BYTES: of the decoded body. */
  readonly maxBytes: number;
  /** MAX_JSON_DEPTH: nesting of arrays and objects. */
  readonly maxDepth: number;
}

type Next = (error?: unknown) => void;

/** The body parser's own error shapes, which the services' exception filter answers (413 body_too_large, 400 invalid_json). */
const TOO_LARGE = { type: 'entity.too.large' } as const;
const NOT_JSON = { type: 'entity.parse.failed' } as const;

// Numbers, not Nest's HttpStatus: this plain middleware is tested without loading Nest.
const BAD_REQUEST = 400;
const UNSUPPORTED_MEDIA_TYPE = 415;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON request body (`application/json`, `application/*+json`) into `request.body`, answering early:
 * a declared Content-Length above the limit is refused with 413 before a byte of the body is read, and a body
 * without one (chunked, or compressed) with 413 as soon as its decoded size passes the limit. Either way the
 * connection is closed after the answer, so the rest is never read. A body nesting deeper than the limit is a
 * 400 `invalid_request`; a body that is not JSON a 400 `invalid_json`. Like the body parser it replaces, it is
 * not strict (`"hello"` is JSON: the handler says it is not an object) and an empty body is `{}`.
 */
export function jsonBody(limits: JsonBodyLimits): (request: IncomingMessage & { body?: unknown }, response: ServerResponse, next: Next) => void {
  return (request, response, next) => {
    if (!JSON_TYPE.test(request.headers['content-type'] ?? '')) {
      next();
      return;
    }
    const refuse = (error: unknown): void => {
      // Nothing more of this request is read: the connection ends once the answer is out.
      response.setHeader('connection', 'close');
      request.unpipe();
      next(error);
    };
    const declared = request.headers['content-length'];
    if (declared !== undefined && Number(declared) > limits.maxBytes) {
      refuse(TOO_LARGE);
      return;
    }
    const source = decoded(request);
    if (source === undefined) {
      refuse(new ApiError(UNSUPPORTED_MEDIA_TYPE, 'invalid_request', 'Content-Encoding must be identity, gzip, deflate or br'));
      return;
    }
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      source.removeAllListeners('data');
      if (error === undefined) next();
      else refuse(error);
    };
    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) {
        source.pause();
        settle(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    });
    source.once('error', () => {
      settle(NOT_JSON);
    });
    source.once('end', () => {
      if (settled) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        request.body = {};
        settle();
        return;
      }
      if (exceedsJsonDepth(text, limits.maxDepth)) {
        settle(new ApiError(BAD_REQUEST, 'invalid_request', `the request body nests deeper than ${String(limits.maxDepth)} levels (MAX_JSON_DEPTH)`));
        return;
      }
      try {
        request.body = JSON.parse(text) as unknown;
      } catch {
        settle(NOT_JSON);
        return;
      }
      settle();
    });
  };
}

/** The body as sent, or decompressed; undefined for an encoding we do not read. */
function decoded(request: IncomingMessage): Readable | undefined {
  const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  switch (encoding) {
    case 'identity':
      return request;
    case 'gzip':
      return request.pipe(createGunzip());
    case 'deflate':
      return request.pipe(createInflate());
    case 'br':
      return request.pipe(createBrotliDecompress());
    default:
      return undefined;
  }
}
