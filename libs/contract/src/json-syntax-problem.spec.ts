import { jsonSyntaxProblem } from './json-syntax-problem.js';

function problemOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return jsonSyntaxProblem(error, text);
  }
  throw new Error('expected a syntax error');
}

describe('jsonSyntaxProblem', () => {
  it.each([
    ['{"secret": "sk-canary', 'ends before its value is complete'],
    ['{"secret": "sk-canary" x}', 'at position'],
    ['sk-canary', 'invalid JSON'],
    ['{"a": 1,}', 'invalid JSON'],
  ])('describes %j without quoting it', (text, expected) => {
    const problem = problemOf(text);
    expect(problem).toContain(expected);
    expect(problem).not.toContain('canary');
    expect(problem).not.toContain('secret');
  });
});
