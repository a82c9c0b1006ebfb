import { describe, expect, it } from 'vitest';
import { formListSchema } from './forms.ts';

describe('formListSchema', () => {
  const form = {
    id: 1,
    name: 'EditIndividualId_passport',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
  };

  it('describes the forms list (id, name, createdAt, updatedAt)', () => {
    expect(formListSchema.parse([form])).toEqual([form]);
  });

  it('refuses a form without an ISO creation time', () => {
    expect(formListSchema.safeParse([{ ...form, createdAt: 'yesterday' }]).success).toBe(false);
  });
});
