import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { z } from 'zod';
import { contractResolver } from './contract-resolver';

interface Values {
  name: string;
  count: string;
  rows: { key: string }[];
}

/** A contract unlike the form: a number for a text, a map for the rows. */
const contract = z.object({
  name: z.string().min(1, { error: 'Name is required' }),
  count: z.number({ error: 'Count must be a number' }),
  rows: z.record(z.string(), z.string()).refine((rows) => Object.keys(rows).length < 3, {
    error: 'At most 2 rows',
  }),
});

const requestOf = (values: Values) => ({
  name: values.name,
  count: Number(values.count),
  rows: Object.fromEntries(values.rows.map((row) => [row.key, 'x'])),
});

const options = {} as ResolverOptions<Values>;
const resolve = (
  resolver: ReturnType<typeof contractResolver<Values, typeof contract>>,
  values: Values,
) => resolver(values, undefined, options);

describe('contractResolver', () => {
  it("gives the contract's output, or each problem under the field its path starts with", async () => {
    const resolver = contractResolver(contract, requestOf);
    const valid = await resolve(resolver, { name: 'a', count: '2', rows: [{ key: 'k' }] });
    expect(valid).toEqual({ values: { name: 'a', count: 2, rows: { k: 'x' } }, errors: {} });
    const invalid = await resolve(resolver, {
      name: '',
      count: 'x',
      rows: [{ key: 'a' }, { key: 'b' }, { key: 'c' }],
    });
    expect(invalid.errors).toEqual({
      name: { type: 'validate', message: 'Name is required' },
      count: { type: 'validate', message: 'Count must be a number' },
      rows: { type: 'validate', message: 'At most 2 rows' },
    });
  });

  it("places the form's own problems at their paths first, the contract's beside them", async () => {
    const resolver = contractResolver(contract, requestOf, (values) =>
      values.rows.flatMap((row, index) =>
        row.key === '' ? [{ path: `rows.${index}.key`, message: 'Key is required' }] : [],
      ),
    );
    const result = await resolve(resolver, {
      name: '',
      count: '1',
      rows: [{ key: 'a' }, { key: '' }],
    });
    expect(result.values).toEqual({});
    expect(result.errors).toEqual({
      name: { type: 'validate', message: 'Name is required' },
      rows: [undefined, { key: { type: 'validate', message: 'Key is required' } }],
    });
    // The contract would accept the request: the form's problem alone refuses it.
    const onlyRows = await resolve(resolver, { name: 'a', count: '1', rows: [{ key: '' }] });
    expect(onlyRows.errors).toEqual({
      rows: [{ key: { type: 'validate', message: 'Key is required' } }],
    });
  });
});
