import { isObservable, lastValueFrom } from 'rxjs';

/**
 * What a Nest message handler returned, awaited: Nest wraps handlers (interceptors, exception filters) and may
 * hand back an Observable of the result, which is read to its end here (its last value, or undefined).
 */
export async function handlerResult(returned: unknown): Promise<unknown> {
  const value: unknown = await returned;
  return isObservable(value) ? lastValueFrom(value, { defaultValue: undefined }) : value;
}
