import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENTITY_SORTS, entityDisplayName, entityListQuerySchema } from './entities.ts';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from './pagination.ts';

const parse = (query: Record<string, unknown>) => entityListQuerySchema.safeParse(query);

describe('entityListQuerySchema', () => {
  it('defaults to offset 0, limit 100, all tenants, by partyEntityId', () => {
    expect(parse({}).data).toEqual({
      offset: 0,
      limit: LIST_LIMIT_DEFAULT,
      tenantId: undefined,
      sort: 'partyEntityId',
    });
    expect(parse({ offset: '', limit: ' ', sort: '' }).data).toMatchObject({
      offset: 0,
      limit: LIST_LIMIT_DEFAULT,
      sort: 'partyEntityId',
    });
  });

  it('reads whole numbers and lowers the limit to the cap', () => {
    expect(
      parse({ offset: '20', limit: '10', tenantId: '2', sort: '-partyEntityId' }).data,
    ).toEqual({
      offset: 20,
      limit: 10,
      tenantId: 2,
      sort: '-partyEntityId',
    });
    expect(parse({ limit: '1001' }).data?.limit).toBe(LIST_LIMIT_MAX);
  });

  it('accepts every whole offset and limit, and refuses every other text', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1 }), (offset, limit) => {
        expect(parse({ offset: String(offset), limit: String(limit) }).data).toMatchObject({
          offset,
          limit: Math.min(limit, LIST_LIMIT_MAX),
        });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const isWhole = /^\s*\d{1,16}\s*$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER;
        expect(parse({ offset: text }).success).toBe(isWhole || text.trim() === '');
      }),
    );
  });

  it.each([
    [{ offset: '-1' }, 'offset must be a whole number from 0 to 9007199254740991'],
    [{ limit: '0' }, 'limit must be a whole number from 1 to 9007199254740991'],
    [{ limit: ['1', '2'] }, 'limit must be a whole number from 1 to 9007199254740991'],
    [{ tenantId: '2147483648' }, 'tenantId must be a whole number from 1 to 2147483647'],
    [{ sort: 'name' }, `sort must be one of ${ENTITY_SORTS.join(', ')}`],
  ])('refuses %j: %s', (query, message) => {
    expect(parse(query).error?.issues.map((issue) => issue.message)).toEqual([message]);
  });
});

describe('entityDisplayName', () => {
  it('is the entityName, trimmed, else the id', () => {
    expect(
      entityDisplayName({ partyEntityId: 'e1', names: { names: { entityName: ' Acme ' } } }),
    ).toBe('Acme');
    expect(entityDisplayName({ partyEntityId: 'e1', names: { names: { entityName: '  ' } } })).toBe(
      'e1',
    );
    expect(entityDisplayName({ partyEntityId: 'e1', names: { names: {} } })).toBe('e1');
    expect(entityDisplayName({ partyEntityId: 'e1', names: null })).toBe('e1');
    expect(entityDisplayName({ partyEntityId: 'e1' })).toBe('e1');
  });
});
