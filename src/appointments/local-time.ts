import { DateTime, IANAZone } from 'luxon';
import type { WallTime } from './parse-appointment.ts';
import { zoneOffset } from './zone-offsets.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export type LocalTimeResolution =
  | { kind: 'exact'; utcMillis: number }
  /** The wall time fell in a spring-forward gap and was moved later by the gap's length. */
  | { kind: 'gap-shifted'; utcMillis: number; gapMinutes: number }
  /** The wall time happens twice (fall back); the earlier instant was taken. */
  | { kind: 'ambiguous-earlier'; utcMillis: number; laterUtcMillis: number };

/**
 * The instant a wall-clock time names in a zone, with explicit DST rules: a time in the
 * spring-forward gap moves forward by the gap (02:30 → 03:30), a time that happens twice takes the
 * earlier instant. Luxon alone moves gap times forward too, but picks the later instant of an
 * overlap, so both cases are decided here from the zone's offsets. Null for an unusable wall time.
 */
export function resolveLocalTime(wall: WallTime, zoneName: string): LocalTimeResolution | null {
  const zone = IANAZone.create(zoneName);
  const asUtc = DateTime.fromObject(wall, { zone: 'utc' });
  if (!zone.isValid || !asUtc.isValid) return null;
  const wallMillis = asUtc.toMillis();
  // The offsets a day either side bracket any transition near this wall time (zones change at
  // most once in a day); an offset is consistent when the instant it gives has that offset.
  const before = zoneOffset(zoneName, wallMillis - DAY_MS);
  const after = zoneOffset(zoneName, wallMillis + DAY_MS);
  if (!Number.isFinite(before) || !Number.isFinite(after)) return null;
  const candidates = [...new Set([before, after])]
    .map((offset) => wallMillis - offset * MINUTE_MS)
    .filter((instant) => zoneOffset(zoneName, instant) === (wallMillis - instant) / MINUTE_MS)
    .sort((a, b) => a - b);
  const [earlier, later] = candidates;
  if (earlier === undefined) {
    // In the gap: read with the offset in force before it, i.e. moved forward by the gap.
    return { kind: 'gap-shifted', utcMillis: wallMillis - before * MINUTE_MS, gapMinutes: after - before };
  }
  if (later === undefined) return { kind: 'exact', utcMillis: earlier };
  return { kind: 'ambiguous-earlier', utcMillis: earlier, laterUtcMillis: later };
}
