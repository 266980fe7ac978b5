/** The JSON body of every error response of the services' HTTP APIs. */
export interface ApiErrorBody<Code extends string = string> {
  readonly error: { readonly code: Code; readonly message: string };
}

/**
 * An error of a service's HTTP API: handlers throw it, the services' exception filter (@llm-stream/nest-kit)
 * writes it as `status` with {@link ApiErrorBody}. A plain error: the framework's exception classes stay in
 * the filter. Each service narrows `Code` to the codes of its API.
 */
export class HttpApiError<Code extends string = string> extends Error {
  override readonly name: string = 'HttpApiError';

  constructor(
    /** The HTTP status code. */
    readonly status: number,
    readonly code: Code,
    message: string,
    /** Sent as `Retry-After` (seconds): when the client may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** The response body: `{"error": {"code", "message"}}`. */
  get body(): ApiErrorBody<Code> {
    return { error: { code: this.code, message: this.message } };
  }
}
