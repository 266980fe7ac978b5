import { GatewayHttp, type GatewayHttpOptions } from './gateway-http.js';
import { gatewayFailure, isEventStream } from './gateway-response.js';
import { HttpEventStream, type OpenedStream } from './http-event-stream.js';
import { HttpStreamError } from './http-stream-error.js';
import { DEFAULT_RESUME_POLICY, type ResumePolicy } from './resume-backoff.js';

export interface LlmStreamHttpClientOptions extends GatewayHttpOptions {
  /** How a broken connection is resumed (default {@link DEFAULT_RESUME_POLICY}). */
  readonly resume?: Partial<ResumePolicy>;
  /**
   * The API key may see reasoning blocks (its policy allows them): nothing is withheld, so every seq must
   * arrive and any skipped one is a `seq_gap`. Default `false`: the gateway withholds reasoning blocks and
   * seq may skip their numbers (see {@link EventOrderCheck} for what is still detected).
   */
  readonly reasoning?: boolean;
}

export interface CreateStreamOptions {
  /** Ends the reading (and aborts the request): the iteration rejects with `aborted`. The stream itself goes on upstream unless cancelled. */
  readonly signal?: AbortSignal;
  /** `?model=`: overrides the model of the body (for protocols whose model is in the URL). */
  readonly model?: string;
}

export interface ResumeStreamOptions {
  /** Deliver the events after this seq (default 0: the whole stream). */
  readonly afterSeq?: number;
  readonly signal?: AbortSignal;
}

/**
 * The gateway's HTTP/SSE API for an application: create a stream and read its contract events, resume one,
 * cancel one. Built on `fetch` and web streams only (no NATS).
 */
export class LlmStreamHttpClient {
  private readonly http: GatewayHttp;
  private readonly resumePolicy: ResumePolicy;
  private readonly contiguous: boolean;

  constructor(options: LlmStreamHttpClientOptions) {
    this.http = new GatewayHttp(options);
    this.resumePolicy = { ...DEFAULT_RESUME_POLICY, ...options.resume };
    this.contiguous = options.reasoning ?? false;
  }

  /**
   * POST /v1/streams/{route} with the provider's own request body (a route is a provider name today:
   * `anthropic`, `openai-chat`, `openai-responses`, `gemini`, or a configured route). The request is sent at
   * once; `streamId` resolves when the gateway answers. A failure before the answer (`GatewayError`, or
   * `connection_failed`) is not retried: the stream may not exist, and creating it twice would call the
   * provider twice.
   */
  createStream(route: string, body: unknown, options: CreateStreamOptions = {}): HttpEventStream {
    const opened = this.http.create(route, body, options.model, options.signal).then(async (response): Promise<OpenedStream> => {
      if (!isEventStream(response)) throw await gatewayFailure(response);
      const streamId = response.headers.get('x-stream-id');
      if (streamId === null) {
        await response.body.cancel();
        throw new HttpStreamError('unexpected_response', 'an event stream without x-stream-id');
      }
      return { streamId, response };
    });
    return this.stream(opened, 0, options.signal);
  }

  /** GET /v1/streams/{id}/events: a stream's events after `afterSeq`, live or finished, on any gateway. */
  resumeStream(streamId: string, options: ResumeStreamOptions = {}): HttpEventStream {
    const afterSeq = options.afterSeq ?? 0;
    const opened = this.http.events(streamId, afterSeq, options.signal).then(async (response): Promise<OpenedStream> => {
      if (!isEventStream(response)) throw await gatewayFailure(response);
      return { streamId, response };
    });
    return this.stream(opened, afterSeq, options.signal);
  }

  private stream(opened: Promise<OpenedStream>, afterSeq: number, signal: AbortSignal | undefined): HttpEventStream {
    return new HttpEventStream({ http: this.http, opened, afterSeq, contiguous: this.contiguous, resume: this.resumePolicy, signal });
  }
}
