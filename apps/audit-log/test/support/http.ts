/** A JSON response: status and parsed body. */
export interface JsonResponse<T> {
  readonly status: number;
  readonly body: T;
}

/** GET with an API key (none: no Authorization header). */
export async function getJson<T = unknown>(url: string, key?: string): Promise<JsonResponse<T>> {
  const response = await fetch(url, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { status: response.status, body: (text === '' ? null : JSON.parse(text)) as T };
}
