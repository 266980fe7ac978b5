/**
 * The canonical serialization the hash chain is computed over: RFC 8785 (JSON Canonicalization Scheme).
 * Object members sorted by their names' UTF-16 code units (JavaScript's default sort order), no whitespace,
 * strings and numbers serialized as ECMAScript's JSON.stringify does (which is what RFC 8785 specifies).
 * Two JSON texts that parse to the same value have the same canonical form, so the hash of a stored event
 * does not depend on the producer's key order or spacing.
 *
 * Written with plain loops and string appends: it runs once per stored event, on the ingestion hot path.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8785
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value) as string | undefined;
    // undefined, functions and symbols have no JSON form; NaN and infinities become null as in JSON.stringify.
    if (text === undefined) throw new TypeError(`canonicalJson: ${typeof value} has no JSON form`);
    return text;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) out += ',';
      out += canonicalJson(value[index]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}
