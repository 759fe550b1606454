import stateTable from './data/state-timezones.json' with { type: 'json' };

export interface StateZones {
  code: string;
  /** The zone most of the state's people live in. */
  main: string;
  /** Every zone in use in the state, main first; one entry means the state alone decides the zone. */
  zones: readonly string[];
}

const byCode = new Map<string, StateZones>();
const byName = new Map<string, StateZones>();
for (const [code, row] of Object.entries(stateTable.states)) {
  const entry = { code, main: row.main, zones: row.zones };
  byCode.set(code, entry);
  byName.set(row.name.toLowerCase(), entry);
}

/**
 * The zones of a US state, DC or territory, by 2-letter code or full name. The mapper sends codes;
 * names are accepted too because a lead missing this step should still find its zone.
 */
export function stateZones(state: string): StateZones | null {
  const key = state.trim();
  return byCode.get(key.toUpperCase()) ?? byName.get(key.toLowerCase().replace(/\s+/g, ' ')) ?? null;
}
