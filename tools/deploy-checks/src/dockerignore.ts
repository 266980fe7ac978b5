/**
 * `.dockerignore` matching as the Docker CLI does it (https://docs.docker.com/build/concepts/context/#syntax):
 * patterns are relative to the context root, `*` matches within one path segment, `**` any number of
 * segments, a leading `!` re-includes, and the last matching pattern wins. A pattern also excludes
 * everything under a directory it matches.
 */
export interface DockerIgnore {
  isExcluded(path: string): boolean;
}

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '*' && pattern[index + 1] === '*') {
      // `**/` matches zero or more whole segments; a trailing `**` matches anything.
      const slash = pattern[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') {
      source += '[^/]*';
    } else if (char === '?') {
      source += '[^/]';
    } else {
      source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}(?:/.*)?$`);
}

export function parseDockerIgnore(text: string): DockerIgnore {
  const rules = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = (negated ? line.slice(1) : line).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      return { negated, regexp: toRegExp(pattern) };
    });
  return {
    isExcluded(path: string): boolean {
      const normalized = path.replace(/^\.\/+/, '').replace(/\/+$/, '');
      let excluded = false;
      for (const rule of rules) if (rule.regexp.test(normalized)) excluded = !rule.negated;
      return excluded;
    },
  };
}
