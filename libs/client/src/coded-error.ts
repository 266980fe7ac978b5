/** An error of the client library whose string-literal `code` tells which (the NATS client's and the HTTP client's). */
export abstract class CodedError<Code extends string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
