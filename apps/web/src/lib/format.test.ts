import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatDateTime, formatDuration } from './format';

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

describe('formatDuration', () => {
  it('says an age in its two largest units', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45.9)).toBe('45 s');
    expect(formatDuration(60)).toBe('1 min');
    expect(formatDuration(12 * 60 + 59)).toBe('12 min 59 s');
    expect(formatDuration(3 * 3600 + 5 * 60 + 7)).toBe('3 h 5 min');
    expect(formatDuration(3 * 3600)).toBe('3 h');
    expect(formatDuration(2 * 86_400 + 4 * 3600 + 59)).toBe('2 d 4 h');
  });

  it.each([-5, Number.NaN, Number.POSITIVE_INFINITY])('says 0 s for %j', (value) => {
    expect(formatDuration(value)).toBe('0 s');
  });

  it('never says more than two units, nor a zero one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (seconds) => {
        const text = formatDuration(seconds);
        const parts = text.split(' ');
        expect(parts.length === 2 || parts.length === 4).toBe(true);
        if (seconds > 0) expect(text).not.toMatch(/(^| )0 /);
      }),
    );
  });
});
