/** The JSON body of every error response of the services' HTTP APIs. */
export interface ApiErrorBody<Code extends string = string> {
  readonly error: { readonly code: Code; readonly message: string };
}

/**
 * An error of a service's HTTP API: handlers throw it, the app's exception filter writes it as `status` with
 * {@link ApiErrorBody}. A plain error: the framework's exception classes stay in the apps' filters. Each
 * service narrows `Code` to the codes of its API.
 */
export class HttpApiError<Code extends string = string> extends Error {
  override readonly name: string = 'HttpApiError';

  constructor(
    /** The HTTP status code. */
    readonly status: number,
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }

  /** The response body: `{"error": {"code", "message"}}`. */
  get body(): ApiErrorBody<Code> {
    return { error: { code: this.code, message: this.message } };
  }
}
