import areaCodeTable from './data/area-code-timezones.json' with { type: 'json' };

const prefixes: Record<string, string> = areaCodeTable.prefixes;

/** The mapper sends 10 digits; a leading country code 1 or punctuation is tolerated anyway. */
function nationalNumber(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return /^[2-9]\d{9}$/.test(national) ? national : null;
}

/**
 * The zone of a NANP phone number by libphonenumber's prefix map: the longest matching prefix of
 * "+1" + the number, so split area codes (208, 270, 850, …) are told apart by the exchange.
 */
export function areaCodeZone(phone: string): string | null {
  const national = nationalNumber(phone);
  if (national === null) return null;
  const number = `+1${national}`;
  for (let length = number.length; length >= 5; length--) {
    const prefix = number.slice(0, length);
    if (Object.hasOwn(prefixes, prefix)) return prefixes[prefix] ?? null;
  }
  return null;
}
