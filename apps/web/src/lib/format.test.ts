import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format';

describe('formatDateTime', () => {
  it('formats as yyyy-MM-dd HH:mm in local time', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 7, 3, 59))).toBe('2024-01-05 07:03');
    expect(formatDateTime(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31 23:59');
    // An ISO text without an offset is local time.
    expect(formatDateTime('2023-06-09T14:30:00')).toBe('2023-06-09 14:30');
    expect(formatDateTime(new Date(2023, 5, 9, 14, 30).getTime())).toBe('2023-06-09 14:30');
  });

  it('converts a UTC timestamp to local time', () => {
    const utc = '2023-06-09T14:30:00Z';
    const local = new Date(utc);
    const hh = String(local.getHours()).padStart(2, '0');
    const mm = String(local.getMinutes()).padStart(2, '0');
    expect(formatDateTime(utc)).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2} ${hh}:${mm}$`));
  });

  it.each([null, undefined, ''])('shows N/A for %j', (value) => {
    expect(formatDateTime(value)).toBe('N/A');
  });

  it.each(['not a date', '2023-13-45', new Date(Number.NaN), Number.NaN])(
    'shows Invalid Date for %j',
    (value) => {
      expect(formatDateTime(value)).toBe('Invalid Date');
    },
  );
});
