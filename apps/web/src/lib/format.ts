/**
 * The one date formatter (STYLE "Small habits"): 'yyyy-MM-dd HH:mm' in the browser's local time.
 */

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return 'N/A';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * An age in its two largest units, for people reading a dashboard: '0 s', '45 s', '12 min 5 s',
 * '3 h 5 min', '2 d 4 h'. Negative or not finite: '0 s'.
 */
export function formatDuration(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const units: [size: number, name: string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const first = units.findIndex(([size]) => whole >= size);
  if (first === -1) return '0 s';
  const [size, name] = units[first]!;
  const parts = [`${Math.floor(whole / size)} ${name}`];
  const next = units[first + 1];
  if (next && name !== 's') {
    const rest = Math.floor((whole % size) / next[0]);
    if (rest > 0) parts.push(`${rest} ${next[1]}`);
  }
  return parts.join(' ');
}
