import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '@llm-stream/testing';

/**
 * The string literals of a union type alias, read from its source file (relative to the repository) with the
 * TypeScript checker: the suites drive the services as processes and import no app code. Throws unless the
 * alias is a union of string literals.
 */
export function stringLiteralsOf(file: string, typeName: string): string[] {
  const path = join(repoRoot(), file);
  const program = ts.createProgram([path], { noResolve: true, noEmit: true, strict: true });
  const source = program.getSourceFile(path);
  if (source === undefined) throw new Error(`cannot read ${file}`);
  const alias = source.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === typeName);
  if (alias === undefined) throw new Error(`${file} declares no type ${typeName}`);
  const type = program.getTypeChecker().getTypeAtLocation(alias.name);
  return (type.isUnion() ? type.types : [type]).map((member) => {
    if (!member.isStringLiteral()) throw new Error(`${typeName} of ${file} has a member that is not a string literal`);
    return member.value;
  });
}

/** A service's `ApiErrorCode` union: the one place its HTTP error codes are listed (ApiError takes only them). */
export function apiErrorCodes(app: 'gateway' | 'audit-log'): string[] {
  return stringLiteralsOf(`apps/${app}/src/errors/api-error.ts`, 'ApiErrorCode');
}
