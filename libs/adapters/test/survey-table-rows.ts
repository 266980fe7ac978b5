/**
 * The table rows (lines starting with `|`) of the part of a markdown document under one `## ` heading: from
 * the first line that starts with `heading` to the next `## ` heading.
 */
export function surveyTableRows(markdown: string, heading: string): readonly string[] {
  const start = markdown.indexOf(heading);
  if (start < 0 || (start > 0 && markdown[start - 1] !== '\n')) return [];
  const rest = markdown.slice(start + heading.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return section.split('\n').filter((line) => line.startsWith('|'));
}

/** The values no row names in backticks, e.g. `` `pause_turn` ``. */
export function valuesWithoutRow(rows: readonly string[], values: readonly string[]): readonly string[] {
  return values.filter((value) => !rows.some((row) => row.includes(`\`${value}\``)));
}
