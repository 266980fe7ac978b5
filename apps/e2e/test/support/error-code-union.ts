import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '@llm-stream/testing';

/**
 * The string literals of a service's `ApiErrorCode` union, read from its source with the TypeScript checker:
 * the suites drive the services as processes and import no app code, and the union is the one place the codes
 * are listed (ApiError takes only them). Throws unless the alias is a union of string literals.
 */
export function apiErrorCodes(app: 'gateway' | 'audit-log'): string[] {
  const file = join(repoRoot(), 'apps', app, 'src', 'errors', 'api-error.ts');
  const program = ts.createProgram([file], { noResolve: true, noEmit: true, strict: true });
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`cannot read ${file}`);
  const alias = source.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === 'ApiErrorCode');
  if (alias === undefined) throw new Error(`${file} declares no ApiErrorCode`);
  const type = program.getTypeChecker().getTypeAtLocation(alias.name);
  const members = type.isUnion() ? type.types : [type];
  return members.map((member) => {
    if (!member.isStringLiteral()) throw new Error(`ApiErrorCode of ${app} has a member that is not a string literal`);
    return member.value;
  });
}
