import { stripUnstorable } from '../ingest/sanitize.ts';
import type { FieldWarning } from '../ingest/types.ts';
import { SAMPLE_LIMITS } from './sample-limits.ts';

/**
 * The text of a refused delivery as it is kept: the bytes received read as UTF-8, cut at
 * SAMPLE_LIMITS.rawBodyMaxBytes on a character boundary, without the characters PostgreSQL text cannot hold (NUL).
 * Each change is told by a warning, so the agent knows the text is not all that was sent.
 */
export function keptRawBody(raw: Buffer | undefined): { text: string; warnings: FieldWarning[] } {
  const bytes = raw ?? Buffer.alloc(0);
  const maxBytes = SAMPLE_LIMITS.rawBodyMaxBytes;
  const warnings: FieldWarning[] = [];
  let end = bytes.length;
  if (end > maxBytes) {
    end = maxBytes;
    // Back up to the first byte of the character the cut falls in (continuation bytes are 10xxxxxx).
    while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    warnings.push({
      field: 'raw_body',
      code: 'RAW_BODY_TRUNCATED',
      message: `The body was ${bytes.length} bytes; only the first ${end} are kept`,
    });
  }
  const decoded = bytes.subarray(0, end).toString('utf8');
  const text = stripUnstorable(decoded);
  if (text !== decoded) {
    warnings.push({
      field: 'raw_body',
      code: 'UNSTORABLE_CHARACTERS_REMOVED',
      message: 'NUL characters were removed from the kept text',
    });
  }
  return { text, warnings };
}
