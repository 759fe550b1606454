import { createHash } from 'node:crypto';

/** Named statements made so far, by their SQL text; new texts past the limit run unnamed. */
const STATEMENT_NAMES = new Map<string, string>();
const STATEMENT_NAMES_MAX = 1_000;

/**
 * A parameterized statement runs as a named (prepared) one: each connection parses and plans it
 * once instead of on every call, which is most of what PostgreSQL spends on a delivery's short
 * statements. The name is the SQL text's hash, so every process names it alike. Texts built with
 * a varying shape (a VALUES list per row) are few; past STATEMENT_NAMES_MAX distinct texts the rest
 * run unnamed, so no connection's statement cache can grow without bound.
 */
export function statementName(sql: string): string | undefined {
  const known = STATEMENT_NAMES.get(sql);
  if (known || STATEMENT_NAMES.size >= STATEMENT_NAMES_MAX) return known;
  const name = `lg_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
  STATEMENT_NAMES.set(sql, name);
  return name;
}
