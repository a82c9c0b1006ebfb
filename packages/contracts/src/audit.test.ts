import { describe, expect, it } from 'vitest';
import { auditListQuerySchema } from './audit.ts';

const parse = (query: Record<string, string>) => auditListQuerySchema.safeParse(query);

describe('auditListQuerySchema', () => {
  it('reads a day as its whole UTC day, and a moment as itself', () => {
    const day = parse({ from: '2025-03-01', to: '2025-03-01' });
    expect(day.success && day.data).toMatchObject({
      from: new Date('2025-03-01T00:00:00Z'),
      to: new Date('2025-03-02T00:00:00Z'),
    });
    const moment = parse({ from: '2025-03-01T10:00:00+02:00', to: '2025-03-01T12:00:00.5Z' });
    expect(moment.success && moment.data).toMatchObject({
      from: new Date('2025-03-01T08:00:00Z'),
      to: new Date('2025-03-01T12:00:00.501Z'),
    });
  });

  it('treats blank filters as not given, and trims the others', () => {
    const parsed = parse({ actor: '  ', q: ' acme ', from: '' });
    expect(parsed.success && parsed.data).toEqual({
      page: 1,
      pageSize: 10,
      actor: undefined,
      action: undefined,
      targetType: undefined,
      targetId: undefined,
      from: undefined,
      to: undefined,
      q: 'acme',
    });
  });

  it.each([
    [{ from: '2025-02-29' }, 'from'],
    [{ to: '2025-13-01' }, 'to'],
    [{ from: '2025-03-01T10:00' }, 'from'],
    [{ from: '2025-03-02', to: '2025-03-01' }, 'to'],
    [{ tenantId: '-1' }, 'tenantId'],
    [{ q: 'a\u0000b' }, 'q'],
  ])('refuses %j, naming %s', (query, name) => {
    const parsed = parse(query);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(new RegExp(`^${name} `));
  });
});
