import areaCodeTable from './data/area-code-states.json' with { type: 'json' };

const areaCodes: Record<string, string> = areaCodeTable.areaCodes;

/**
 * The US state, DC or territory a NANP number's area code is assigned to (libphonenumber's
 * geocoding data, scripts/build-area-code-timezones.ts), or null: not a geographic US area code.
 * The area code says where the number was issued, not where its owner lives now.
 */
export function areaCodeState(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (!/^[2-9]\d{9}$/.test(national)) return null;
  const npa = national.slice(0, 3);
  return Object.hasOwn(areaCodes, npa) ? (areaCodes[npa] ?? null) : null;
}
