import { appError } from '../errors.ts';

/** One query-string value of a page; a repeated parameter is refused rather than guessed at. */
export function queryValue(query: unknown, key: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw appError('VALIDATION_ERROR', `${key} must be given once`);
  return value;
}
