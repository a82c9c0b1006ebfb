import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVENT_NAME_MAX_LENGTH,
  eventIdParamsSchema,
  eventListQuerySchema,
  eventResetBodySchema,
  eventResetQuerySchema,
  eventStatus,
} from './events.ts';

function problems(query: Record<string, string>): string[] {
  const result = eventListQuerySchema.safeParse(query);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('eventStatus', () => {
  it('is Error when a worker failed, else Processed when done, else Unprocessed', () => {
    expect(eventStatus({ hasError: true, isProcessed: false })).toBe('Error');
    expect(eventStatus({ hasError: true, isProcessed: true })).toBe('Error');
    expect(eventStatus({ hasError: false, isProcessed: true })).toBe('Processed');
    expect(eventStatus({ hasError: false, isProcessed: false })).toBe('Unprocessed');
  });

  it('lets an error win over any processing state', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), (hasError, isProcessed) => {
        const status = eventStatus({ hasError, isProcessed });
        expect(status === 'Error').toBe(hasError);
      }),
    );
  });
});

describe('eventListQuerySchema', () => {
  it('defaults to the first page of 10, newest first, without filters', () => {
    expect(eventListQuerySchema.parse({})).toEqual({
      page: 1,
      pageSize: 10,
      sortOrder: 'desc',
      unprocessedOnly: false,
      erroredOnly: false,
      eventName: undefined,
    });
  });

  it('reads the query string values', () => {
    expect(
      eventListQuerySchema.parse({
        page: '3',
        pageSize: '25',
        sortOrder: 'ASC',
        unprocessedOnly: 'true',
        erroredOnly: 'False',
        eventName: '  Tenant ',
      }),
    ).toEqual({
      page: 3,
      pageSize: 25,
      sortOrder: 'asc',
      unprocessedOnly: true,
      erroredOnly: false,
      eventName: 'Tenant',
    });
  });

  it('treats blank values as not given and lowers large page sizes to 100', () => {
    expect(
      eventListQuerySchema.parse({ page: '', pageSize: ' ', eventName: '   ', sortOrder: '' }),
    ).toMatchObject({ page: 1, pageSize: 10, eventName: undefined, sortOrder: 'desc' });
    expect(eventListQuerySchema.parse({ pageSize: '1000' }).pageSize).toBe(100);
    expect(eventListQuerySchema.parse({ pageSize: '7' }).pageSize).toBe(7);
  });

  it('names the parameter and the rule when a value is wrong', () => {
    expect(problems({ page: '0' })).toEqual(['page must be a whole number of at least 1']);
    expect(problems({ page: '-1' })).toEqual(['page must be a whole number of at least 1']);
    expect(problems({ page: '1.5' })).toEqual(['page must be a whole number of at least 1']);
    expect(problems({ pageSize: 'ten' })).toEqual([
      'pageSize must be a whole number of at least 1',
    ]);
    expect(problems({ sortOrder: 'newest' })).toEqual(['sortOrder must be desc or asc']);
    expect(problems({ unprocessedOnly: 'yes' })).toEqual(['unprocessedOnly must be true or false']);
    expect(problems({ erroredOnly: '1' })).toEqual(['erroredOnly must be true or false']);
    expect(problems({ eventName: 'x'.repeat(EVENT_NAME_MAX_LENGTH + 1) })).toEqual([
      `eventName must be ${EVENT_NAME_MAX_LENGTH} characters or less`,
    ]);
    expect(problems({ eventName: 'x'.repeat(EVENT_NAME_MAX_LENGTH) })).toEqual([]);
  });

  it('accepts every whole page number and never answers more than 100 rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 999_999_999 }), (value) => {
        const parsed = eventListQuerySchema.parse({ page: String(value), pageSize: String(value) });
        expect(parsed.page).toBe(value);
        expect(parsed.pageSize).toBe(Math.min(value, 100));
      }),
    );
  });
});

describe('reset and id schemas', () => {
  it('takes an optional worker name from the query or the body', () => {
    expect(eventResetQuerySchema.parse({})).toEqual({ workerName: undefined });
    expect(eventResetQuerySchema.parse({ workerName: ' audit-trail ' })).toEqual({
      workerName: 'audit-trail',
    });
    expect(eventResetQuerySchema.parse({ workerName: '' })).toEqual({ workerName: undefined });
    expect(eventResetBodySchema.parse(undefined)).toBeUndefined();
    expect(eventResetBodySchema.parse(null)).toBeNull();
    expect(eventResetBodySchema.parse({ workerName: 'notifications' })).toEqual({
      workerName: 'notifications',
    });
  });

  it('accepts positive whole ids only', () => {
    expect(eventIdParamsSchema.parse({ id: '42' })).toEqual({ id: 42 });
    expect(eventIdParamsSchema.safeParse({ id: '0' }).success).toBe(false);
    expect(eventIdParamsSchema.safeParse({ id: 'abc' }).success).toBe(false);
    expect(eventIdParamsSchema.safeParse({ id: '1.5' }).success).toBe(false);
  });
});
