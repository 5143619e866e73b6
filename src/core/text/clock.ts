/** Media time as `m:ss` or `h:mm:ss` (seconds rounded down). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** A clock "1:15:00" / "15:30" in seconds. */
export function parseClock(s: string): number {
  const parts = s.split(':').map(Number);
  return parts.reduce((a, p) => a * 60 + p, 0);
}
