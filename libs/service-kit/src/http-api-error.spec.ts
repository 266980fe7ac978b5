import { HttpApiError } from './http-api-error.js';

type Code = 'not_found' | 'unavailable';

describe('HttpApiError', () => {
  it('carries status, code and message, and its body is the JSON error shape', () => {
    const error = new HttpApiError<Code>(404, 'not_found', 'no stream st_1');
    expect(error).toBeInstanceOf(Error);
    expect([error.status, error.code, error.message]).toEqual([404, 'not_found', 'no stream st_1']);
    expect(JSON.stringify(error.body)).toBe('{"error":{"code":"not_found","message":"no stream st_1"}}');
  });

  it("is caught as the service's own subclass", () => {
    class ServiceError extends HttpApiError<Code> {}
    const error: unknown = new ServiceError(503, 'unavailable', 'try again');
    expect(error instanceof ServiceError && error instanceof HttpApiError).toBe(true);
  });
});
