import { errorCode } from './error-code.js';

describe('errorCode', () => {
  it("names an error by its code, never by its message (which can quote data)", () => {
    expect(errorCode(Object.assign(new Error('invalid input syntax for type json: "secret"'), { code: '22P02' }))).toBe('22P02');
    expect(errorCode(new SyntaxError('Unexpected token s in "secret"'))).toBe('SyntaxError');
    expect(errorCode('a string')).toBe('string');
  });
});
