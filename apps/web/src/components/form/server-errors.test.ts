import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { serverFieldErrors } from './server-errors';

const FIELDS = ['displayName', 'tags', 'apiReferences', 'years'];
const ALIASES = { 'validityPeriod.years': 'years' };

/** A 400 as the server's error handler shapes it (apps/server/src/app.ts). */
function badRequest(errors: { path: string; message: string }[]) {
  return new ApiError('API request to /api/documenttypes failed with status 400', {
    status: 400,
    statusText: 'Bad Request',
    data: { message: 'Invalid body: ...', errors },
  });
}

describe('serverFieldErrors', () => {
  it('places each problem on the field its path names, the first one a field has winning', () => {
    const error = badRequest([
      { path: 'displayName', message: 'displayName must be 200 characters or less' },
      { path: 'tags.3', message: 'A tag must be 100 characters or less' },
      { path: 'tags.4', message: 'A tag must be 100 characters or less (second)' },
      { path: 'apiReferences.onfido', message: "The reference for 'onfido' must not be empty" },
      { path: 'validityPeriod.years', message: 'Too small' },
    ]);
    expect(serverFieldErrors(error, FIELDS, ALIASES)).toEqual([
      { field: 'displayName', message: 'displayName must be 200 characters or less' },
      { field: 'tags', message: 'A tag must be 100 characters or less' },
      { field: 'apiReferences', message: "The reference for 'onfido' must not be empty" },
      { field: 'years', message: 'Too small' },
    ]);
  });

  it('places nothing when a problem names no field of the form, so the message shows whole', () => {
    const error = badRequest([
      { path: 'displayName', message: 'displayName is required' },
      { path: 'validTo', message: 'validTo must not be before validFrom' },
    ]);
    expect(serverFieldErrors(error, FIELDS, ALIASES)).toBeNull();
    expect(serverFieldErrors(badRequest([]), FIELDS)).toBeNull();
  });

  it('leaves other failures alone: other statuses, other bodies, other errors', () => {
    const conflict = new ApiError('failed', {
      status: 409,
      statusText: 'Conflict',
      data: { message: 'exists', errors: [{ path: 'displayName', message: 'exists' }] },
    });
    const plain400 = new ApiError('failed', {
      status: 400,
      statusText: 'Bad Request',
      data: { message: 'Country 276 does not exist.' },
    });
    expect(serverFieldErrors(conflict, FIELDS)).toBeNull();
    expect(serverFieldErrors(plain400, FIELDS)).toBeNull();
    expect(serverFieldErrors(new Error('network'), FIELDS)).toBeNull();
  });
});
