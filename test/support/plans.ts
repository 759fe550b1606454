import type { Queryable } from '../../src/db/index.ts';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

/** Every table a statement's plan reads from start to end (a "Seq Scan" names its relation). */
export async function seqScans(db: Queryable, sql: string, params: unknown[]): Promise<string[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const plan = rows[0]?.['QUERY PLAN'];
  const [top] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
  const found: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Node Type'] === 'Seq Scan') found.push(String(node['Relation Name']));
    for (const child of node.Plans ?? []) walk(child);
  };
  if (!top) throw new Error(`no plan for ${sql}`);
  walk(top.Plan);
  return found;
}
