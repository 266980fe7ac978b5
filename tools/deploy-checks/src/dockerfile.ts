/**
 * A Dockerfile reader for the instructions our Dockerfiles use, following the reference's rules
 * (https://docs.docker.com/reference/dockerfile/): comment lines, `\` line continuations (comment lines
 * inside a continued instruction are dropped), `--flag=value` options, exec (JSON array) and shell forms,
 * global ARGs before the first FROM substituted into FROM lines.
 */

export const INSTRUCTIONS = [
  'ADD',
  'ARG',
  'CMD',
  'COPY',
  'ENTRYPOINT',
  'ENV',
  'EXPOSE',
  'FROM',
  'HEALTHCHECK',
  'LABEL',
  'ONBUILD',
  'RUN',
  'SHELL',
  'STOPSIGNAL',
  'USER',
  'VOLUME',
  'WORKDIR',
] as const;
export type InstructionKeyword = (typeof INSTRUCTIONS)[number];

export interface Instruction {
  /** 1-based line where the instruction starts. */
  readonly line: number;
  readonly keyword: InstructionKeyword;
  /** `--name=value` options before the arguments (`--name` alone maps to ''). */
  readonly flags: Readonly<Record<string, string>>;
  /** The arguments after the flags, continuation lines joined with a space. */
  readonly args: string;
  /** The arguments as an array when they are in exec (JSON) form. */
  readonly json: readonly string[] | null;
}

export interface Stage {
  readonly index: number;
  readonly name: string | null;
  /** The FROM image with global ARGs substituted, or the name of an earlier stage. */
  readonly image: string;
  readonly from: Instruction;
  /** Instructions after FROM, up to the next FROM. */
  readonly instructions: readonly Instruction[];
}

export interface Dockerfile {
  /** ARG instructions before the first FROM. */
  readonly globalArgs: Readonly<Record<string, string>>;
  readonly stages: readonly Stage[];
}

export interface DockerfileSyntaxError {
  readonly code: 'dockerfile_syntax';
  readonly line: number;
  readonly message: string;
}

export type ParseResult = { readonly ok: true; readonly value: Dockerfile } | { readonly ok: false; readonly error: DockerfileSyntaxError };

function isInstruction(word: string): word is InstructionKeyword {
  return (INSTRUCTIONS as readonly string[]).includes(word);
}

/** Joins continued lines; each logical line keeps the number of its first physical line. */
function logicalLines(text: string): { line: number; text: string }[] {
  const result: { line: number; text: string }[] = [];
  let start = 0;
  let parts: string[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const trimmed = raw.trim();
    // Comment and blank lines are dropped, also inside a continued instruction.
    if (trimmed.startsWith('#') || trimmed === '') continue;
    const continued = /\\\s*$/.test(raw);
    if (parts.length === 0) start = index + 1;
    parts.push((continued ? raw.replace(/\\\s*$/, '') : raw).trim());
    if (!continued) {
      result.push({ line: start, text: parts.filter((part) => part !== '').join(' ') });
      parts = [];
    }
  }
  if (parts.length > 0) result.push({ line: start, text: parts.join(' ') });
  return result;
}

function parseExecForm(args: string): readonly string[] | null {
  if (!args.startsWith('[')) return null;
  try {
    const value: unknown = JSON.parse(args);
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value) : null;
  } catch {
    return null;
  }
}

function splitFlags(rest: string): { flags: Record<string, string>; args: string } {
  const flags: Record<string, string> = {};
  let args = rest;
  for (;;) {
    const match = /^--([A-Za-z-]+)(?:=(\S*))?(?:\s+|$)/.exec(args);
    if (match === null) break;
    flags[match[1] ?? ''] = match[2] ?? '';
    args = args.slice(match[0].length);
  }
  return { flags, args };
}

/** `${NAME}`, `${NAME:-default}` and `$NAME` from the given variables; unknown names stay as written. */
export function substitute(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, braced, fallback, bare) => {
    const name = (braced ?? bare) as string;
    return variables[name] ?? (fallback as string | undefined) ?? whole;
  });
}

export function parseDockerfile(text: string): ParseResult {
  const instructions: Instruction[] = [];
  for (const { line, text: logical } of logicalLines(text)) {
    const match = /^(\S+)\s*(.*)$/.exec(logical);
    const word = (match?.[1] ?? '').toUpperCase();
    if (!isInstruction(word)) {
      return { ok: false, error: { code: 'dockerfile_syntax', line, message: `unknown instruction ${JSON.stringify(match?.[1] ?? logical)}` } };
    }
    const { flags, args } = splitFlags(match?.[2] ?? '');
    instructions.push({ line, keyword: word, flags, args, json: parseExecForm(args) });
  }
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  let open: { from: Instruction; image: string; name: string | null; instructions: Instruction[] } | null = null;
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      if (open) stages.push({ index: stages.length, ...open });
      const [image = '', as, name] = instruction.args.split(/\s+/);
      if (image === '' || (as !== undefined && (as.toUpperCase() !== 'AS' || name === undefined))) {
        return { ok: false, error: { code: 'dockerfile_syntax', line: instruction.line, message: 'FROM <image> [AS <name>]' } };
      }
      open = { from: instruction, image: substitute(image, globalArgs), name: name ?? null, instructions: [] };
    } else if (open) {
      open.instructions.push(instruction);
    } else if (instruction.keyword === 'ARG') {
      const [name = '', value = ''] = instruction.args.split('=', 2);
      globalArgs[name.trim()] = value.trim().replace(/^"(.*)"$/, '$1');
    } else {
      return { ok: false, error: { code: 'dockerfile_syntax', line: instruction.line, message: `${instruction.keyword} before the first FROM` } };
    }
  }
  if (open) stages.push({ index: stages.length, ...open });
  if (stages.length === 0) return { ok: false, error: { code: 'dockerfile_syntax', line: 1, message: 'no FROM instruction' } };
  return { ok: true, value: { globalArgs, stages } };
}

/** `KEY=value KEY2="v w"` (or the legacy `KEY value`) of ENV and LABEL; ARG gives `NAME[=default]`. */
export function parseAssignments(args: string): Record<string, string> {
  const result: Record<string, string> = {};
  if (!args.includes('=')) {
    const [key = '', ...rest] = args.split(/\s+/);
    result[key] = rest.join(' ');
    return result;
  }
  for (const match of args.matchAll(/([A-Za-z_][A-Za-z0-9_.-]*)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|\S*))?/g)) {
    const raw = match[2] ?? '';
    result[match[1] ?? ''] = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return result;
}
