import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_REFERENCES_MAX_COUNT,
  API_REFERENCE_MAX_LENGTH,
  DISPLAY_NAME_MAX_LENGTH,
  TAGS_MAX_COUNT,
  TAG_MAX_LENGTH,
  documentTypeCreateSchema,
} from './document-types.ts';
import { eventListQuerySchema, eventResetQuerySchema } from './events.ts';
import { tenantUserCreateSchema } from './tenant-users.ts';
import { tenantWriteSchema } from './tenants.ts';
import { PROTOTYPE_KEYS, isPrototypeKey } from './keys.ts';
import {
  JSON_DEPTH_MAX,
  findJsonProblem,
  hasNoLoneSurrogate,
  loneSurrogateMessage,
  nulMessage,
  text,
  unstorableTextMessage,
} from './text.ts';

const field = text({ name: 'displayName', max: 10 });
const messagesOf = (value: unknown) =>
  field.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe('text()', () => {
  it('refuses the NUL character and both halves of a lone surrogate, naming the field', () => {
    expect(messagesOf('a\u0000b')).toEqual(['displayName must not contain the NUL character']);
    for (const half of ['\ud800', '\udc00', 'a\ud83d', '\ude00a', '\udc00\ud800']) {
      expect(messagesOf(half)).toEqual([
        'displayName must not contain a lone surrogate (half of a UTF-16 pair, not valid Unicode)',
      ]);
    }
  });

  it('accepts surrogate pairs (emoji and other characters beyond U+FFFF)', () => {
    expect(field.parse('😀 𝄞')).toBe('😀 𝄞');
  });

  it('refuses a value over its maximum and exposes the maximum for the UI', () => {
    expect(field.maxLength).toBe(10);
    expect(messagesOf('x'.repeat(11))).toEqual(['displayName must be 10 characters or less']);
    expect(field.parse('x'.repeat(10))).toBe('x'.repeat(10));
    expect(messagesOf(undefined)).toEqual(['Required']);
    expect(messagesOf(3)).toEqual(['displayName must be a string']);
  });

  it('trims before measuring when asked to', () => {
    const trimmed = text({ name: 'name', max: 3, trim: true });
    expect(trimmed.parse('  abc  ')).toBe('abc');
    expect(trimmed.maxLength).toBe(3);
  });

  it('accepts exactly the well-formed strings without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 10 }), (value) => {
        const wellFormed = encodeURIComponentSafe(value) && !value.includes('\u0000');
        expect(field.safeParse(value).success).toBe(wellFormed);
        expect(unstorableTextMessage(value, 'x') === null).toBe(wellFormed);
      }),
    );
  });

  it('finds lone surrogates anywhere in arbitrary UTF-16', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), fc.nat(20), (value, at) => {
        const broken = `${value.slice(0, at)}\ud800${value.slice(at)}`;
        // A high surrogate followed by a low one is a pair: only then is it no longer alone.
        if (!/^[\udc00-\udfff]/.test(value.slice(at))) {
          expect(hasNoLoneSurrogate(broken)).toBe(false);
        }
      }),
    );
  });
});

/** encodeURIComponent throws exactly on lone surrogates: an independent oracle. */
function encodeURIComponentSafe(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

describe('findJsonProblem', () => {
  const nest = (levels: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level++) value = { x: value };
    return value;
  };
  const deeperThan = (value: unknown, max: number) => findJsonProblem(value, 'the body', max)?.path;
  /** A recursive reference: whether any key of any object in `value` is a prototype key. */
  const hasPrototypeKey = (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    Object.entries(value).some(
      ([k, v]) => (!Array.isArray(value) && isPrototypeKey(k)) || hasPrototypeKey(v),
    );

  it('measures nesting of objects and arrays, naming the first field on the way', () => {
    expect(findJsonProblem(nest(JSON_DEPTH_MAX), 'the body')).toBeNull();
    expect(findJsonProblem(nest(JSON_DEPTH_MAX + 1), 'the body')).toEqual({
      path: Array(JSON_DEPTH_MAX).fill('x'),
      message: `x is nested too deeply: a JSON body may nest at most ${JSON_DEPTH_MAX} levels`,
    });
    expect(deeperThan([[['a']]], 2)).toEqual(['0', '0']);
    expect(findJsonProblem([[['a']]], 'the body', 2)?.message).toMatch(/^the body is nested/);
    expect(deeperThan('text', 0)).toBeUndefined();
  });

  it('walks a million levels without exhausting the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`) as unknown;
    expect(deeperThan(deep, JSON_DEPTH_MAX)).toHaveLength(JSON_DEPTH_MAX);
  });

  it('agrees with a recursive depth count', () => {
    const depth = (value: unknown): number =>
      typeof value === 'object' && value !== null
        ? 1 + Math.max(0, ...Object.values(value).map(depth))
        : 0;
    // fast-check draws keys such as `toString` on purpose: those are the next test's.
    const withoutPrototypeKeys = fc
      .jsonValue({ maxDepth: 6 })
      .filter((value) => !hasPrototypeKey(value));
    fc.assert(
      fc.property(withoutPrototypeKeys, fc.integer({ min: 0, max: 7 }), (value, max) => {
        expect(deeperThan(value, max) === undefined).toBe(depth(value) <= max);
      }),
    );
  });

  it('refuses a prototype key anywhere, own `__proto__` included, naming its path', () => {
    expect(
      findJsonProblem(JSON.parse('{"a":1,"__proto__":{"polluted":true}}'), 'the body'),
    ).toEqual({
      path: ['__proto__'],
      message: 'A key of the body must not be __proto__: JavaScript objects reserve that name',
    });
    expect(
      findJsonProblem({ list: [{ apiReferences: { onfido: 'x', toString: 'y' } }] }, 'the body'),
    ).toEqual({
      path: ['list', '0', 'apiReferences', 'toString'],
      message:
        'A key of list.0.apiReferences must not be toString: JavaScript objects reserve that name',
    });
    expect(findJsonProblem({ Constructor: 1, ['constructor ']: 2 }, 'FormData')).toBeNull();
    expect(findJsonProblem(['constructor', { value: 'prototype' }], 'FormData')).toBeNull();
    expect(findJsonProblem({ valueOf: 1 }, 'FormData')?.message).toBe(
      'A key of FormData must not be valueOf: JavaScript objects reserve that name',
    );
  });

  it('finds a prototype key exactly when the document has one, and its path leads to it', () => {
    // JSON documents whose keys are drawn from ordinary names and every prototype key, as the
    // text a client sends, so that `__proto__` is an own key once parsed, as in a client's body.
    const key = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 4 }));
    const { document } = fc.letrec<{ document: string }>((tie) => ({
      document: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 0 }).map((leaf) => JSON.stringify(leaf)),
        fc.array(tie('document'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
        fc
          .array(fc.tuple(key, tie('document')), { maxLength: 3 })
          .map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      ),
    }));
    fc.assert(
      fc.property(document, (text) => {
        const value = JSON.parse(text) as unknown;
        const problem = findJsonProblem(value, 'the body');
        expect(problem !== null).toBe(hasPrototypeKey(value));
        if (!problem) return;
        const parent = problem.path
          .slice(0, -1)
          .reduce<unknown>((at, step) => (at as Record<string, unknown>)[step], value);
        const last = problem.path.at(-1)!;
        expect(isPrototypeKey(last)).toBe(true);
        expect(Object.hasOwn(parent as object, last)).toBe(true);
      }),
    );
  });
});

describe('the limits of the request schemas', () => {
  const messages = (result: { error?: { issues: { message: string }[] } }) =>
    result.error?.issues.map((issue) => issue.message) ?? [];

  it('bound document type texts and lists, and refuse lone surrogates in API references', () => {
    const valid = { id: 'passport', displayName: 'Passport', tags: [], apiReferences: {} };
    const refused = [
      [
        { displayName: 'x'.repeat(DISPLAY_NAME_MAX_LENGTH + 1) },
        'displayName must be 200 characters or less',
      ],
      [{ tags: ['x'.repeat(TAG_MAX_LENGTH + 1)] }, 'A tag must be 100 characters or less'],
      [
        { tags: Array.from({ length: TAGS_MAX_COUNT + 1 }, (_, i) => `t${i}`) },
        'A document type can have at most 50 tags',
      ],
      [
        { apiReferences: { svc: 'x'.repeat(API_REFERENCE_MAX_LENGTH + 1) } },
        'An API reference must be 2000 characters or less',
      ],
      [{ apiReferences: { ['s\ud800']: 'v' } }, loneSurrogateMessage('A service name')],
      [{ apiReferences: { svc: 'v\udc00' } }, loneSurrogateMessage('An API reference')],
      [
        {
          apiReferences: Object.fromEntries(
            Array.from({ length: API_REFERENCES_MAX_COUNT + 1 }, (_, i) => [`s${i}`, 'v']),
          ),
        },
        'A document type can have at most 50 API references',
      ],
    ] as const;
    for (const [change, message] of refused) {
      expect(messages(documentTypeCreateSchema.safeParse({ ...valid, ...change }))).toEqual([
        message,
      ]);
    }
  });

  it('bound tenant and tenant user texts', () => {
    const tenant = { companyName: 'Acme', domicileCountryId: 250 };
    expect(messages(tenantWriteSchema.safeParse({ ...tenant, companyName: 'A\ud800' }))).toEqual([
      loneSurrogateMessage('companyName'),
    ]);
    expect(
      messages(tenantWriteSchema.safeParse({ ...tenant, namespaces: Array(101).fill('ns') })),
    ).toEqual(['A tenant can have at most 50 namespaces']);
    expect(
      messages(tenantUserCreateSchema.safeParse({ email: 'a\u0000@b.example', tenantId: 1 })),
    ).toEqual([nulMessage('email')]);
  });

  it('bound the event filters', () => {
    expect(messages(eventListQuerySchema.safeParse({ eventName: '\u0000' }))).toEqual([
      nulMessage('eventName'),
    ]);
    expect(messages(eventResetQuerySchema.safeParse({ workerName: 'w\udc00' }))).toEqual([
      loneSurrogateMessage('workerName'),
    ]);
  });
});
