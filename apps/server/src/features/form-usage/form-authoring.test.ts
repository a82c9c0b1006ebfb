import { FORM_SUBMITTED_MESSAGE, VALIDATION_PROBLEM_TITLE } from '@console/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { snapshotDatabase } from '../../../test/database-snapshot.ts';
import { clearFormsAndProfiles, insertFields, insertForm } from '../../../test/form-rows.ts';
import { attr, elements, hasAttr, oneWithAttr, parseHtml, withAttr } from '../../../test/html.ts';
import { usePortalTestApp, type Caller } from '../../../test/portal-test-app.ts';

/**
 * The forms service's rendering and test submission (spec part 2, section 7; forms-design.md):
 * GET /svc/formauthoring/{name}, GET /svc/formauthoring/{name}/fieldgroup/{group} and POST
 * /svc/formauthoring/{name or formId}/submit, on the demo data (countries, document types).
 */

// No event workers: they would update the events of earlier tests while a test compares snapshots.
const portal = usePortalTestApp({ eventWorkersEnabled: false });
const db = () => portal.testApp.database.db;

/** Staff only: tenant users and callers without a role are refused, anonymous callers too. */
const REFUSED: [Caller, number][] = [
  ['anonymous', 401],
  ['acme', 403],
  ['globex', 403],
  ['noRole', 403],
];

let formId: number;

beforeEach(async () => {
  await clearFormsAndProfiles(db());
  const ids = await insertFields(db(), [
    {
      name: 'FullName',
      displayName: 'Full name',
      required: true,
      maxLength: 100,
      uiGroup: 'Identity',
    },
    { name: 'Email', type: 'Email', displayName: 'Email address', uiGroup: 'Contact' },
    { name: 'Phone', type: 'PhoneNumber', displayName: 'Phone', uiGroup: 'Contact' },
    { name: 'BirthDate', type: 'Date', displayName: 'Date of birth', uiGroup: 'Identity' },
    { name: 'Nationality', type: 'Country', displayName: 'Nationality', uiGroup: 'Identity' },
    { name: 'IdType', type: 'DocumentType', displayName: 'ID type', uiGroup: 'Identity' },
    {
      name: 'IdNumber',
      displayName: 'ID number',
      pattern: '[A-Z0-9]{6,9}',
      requireFields: ['IdExpiry'],
      uiGroup: 'Identity',
    },
    { name: 'IdExpiry', type: 'Date', displayName: 'ID expiry', uiGroup: 'Identity' },
    {
      name: 'Risk',
      type: 'Select',
      displayName: 'Risk',
      options: ['Low', 'Medium', 'High'],
      uiGroup: 'Risk',
    },
    {
      name: 'RiskReason',
      displayName: 'Risk reason',
      uiGroup: 'Risk',
      conditionalRequirements: [{ fieldName: 'Risk', triggerValues: ['High'] }],
    },
    {
      name: 'Pep',
      type: 'DropdownYesNo',
      displayName: 'Politically exposed',
      uiGroup: 'Risk',
    },
    {
      name: 'PepDetails',
      displayName: 'PEP details',
      uiGroup: 'Risk',
      conditionalRequirements: [
        {
          fieldName: 'Pep',
          triggerValues: ['!No'],
          validationMessage: 'Say why, unless the answer is No.',
        },
      ],
    },
    { name: 'Rating', displayName: 'Internal rating', editPermissions: ['admin'], uiGroup: 'Risk' },
  ]);
  formId = await insertForm(db(), 'KycForm', [...ids, 424242], {
    uiGroupOrder: ['Identity', 'Risk', 'Contact'],
  });
});

const html = (caller: Caller, url: string) => portal.call(caller, 'GET', url);
const submit = (caller: Caller, nameOrId: string | number, body: unknown) =>
  portal.call(caller, 'POST', `/svc/formauthoring/${nameOrId}/submit`, body);

function expectHtml(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  const { root, errors } = parseHtml(response.body);
  expect(errors).toEqual([]);
  return root;
}

describe('GET /svc/formauthoring/{name}', () => {
  it("answers the form's HTML: markers, then the groups in order", async () => {
    const root = expectHtml(await html('staff', '/svc/formauthoring/KycForm'));
    expect(attr(elements(root)[0]!, 'data-form')).toBe('KycForm');
    expect(withAttr(root, 'data-unresolved-field', '424242')).toHaveLength(1);
    const groups = elements(root).filter((element) => element.tagName === 'fieldset');
    expect(groups.map((group) => attr(group, 'data-group'))).toEqual([
      'Identity',
      'Risk',
      'Contact',
    ]);
    expect(withAttr(root, 'name', 'DataObject.FullName')).toHaveLength(1);
  });

  it('finds the form whatever the letter case of its name, also under /api', async () => {
    expectHtml(await html('admin', '/svc/formauthoring/kycform'));
    expectHtml(await html('admin', '/api/svc/formauthoring/KYCFORM'));
  });

  it('renders the fields staff may not edit disabled, and enabled for an admin', async () => {
    const rating = (root: ReturnType<typeof expectHtml>) =>
      hasAttr(oneWithAttr(root, 'name', 'DataObject.Rating'), 'disabled');
    expect(rating(expectHtml(await html('staff', '/svc/formauthoring/KycForm')))).toBe(true);
    expect(rating(expectHtml(await html('admin', '/svc/formauthoring/KycForm')))).toBe(false);
  });

  it('answers 404 for a form that does not exist, 400 for a name that cannot be one', async () => {
    const missing = await html('staff', '/svc/formauthoring/NoSuchForm');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Form NoSuchForm not found.' });
    const bad = await html('staff', '/svc/formauthoring/_bad');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('name');
  });

  it.each(REFUSED)('refuses %s with %i', async (caller, status) => {
    expect((await html(caller, '/svc/formauthoring/KycForm')).statusCode).toBe(status);
  });
});

describe('GET /svc/formauthoring/{name}/fieldgroup/{group}', () => {
  it('answers one group; the first starts with the unresolved markers', async () => {
    const first = expectHtml(await html('staff', '/svc/formauthoring/KycForm/fieldgroup/Identity'));
    expect(withAttr(first, 'data-unresolved-field', '424242')).toHaveLength(1);
    expect(
      elements(first)
        .filter((element) => element.tagName === 'fieldset')
        .map((group) => attr(group, 'data-group')),
    ).toEqual(['Identity']);
    const later = expectHtml(await html('staff', '/svc/formauthoring/KycForm/fieldgroup/Contact'));
    expect(withAttr(later, 'data-unresolved-field', '424242')).toEqual([]);
    expect(
      elements(later)
        .map((element) => attr(element, 'data-field'))
        .filter(Boolean),
    ).toEqual(['Email', 'Phone']);
  });

  it('takes a group name with spaces and other characters, URL-encoded', async () => {
    await insertForm(
      db(),
      'Spaced',
      await insertFields(db(), [{ name: 'X', uiGroup: 'Due diligence / EDD' }]),
    );
    expectHtml(
      await html(
        'staff',
        `/svc/formauthoring/Spaced/fieldgroup/${encodeURIComponent('Due diligence / EDD')}`,
      ),
    );
  });

  it('answers 404 for an unknown group or form', async () => {
    const group = await html('staff', '/svc/formauthoring/KycForm/fieldgroup/Nope');
    expect(group.statusCode).toBe(404);
    expect(group.json()).toEqual({ message: 'Form KycForm has no group Nope.' });
    expect((await html('staff', '/svc/formauthoring/Nope/fieldgroup/Identity')).statusCode).toBe(
      404,
    );
  });

  it.each(REFUSED)('refuses %s with %i', async (caller, status) => {
    expect((await html(caller, '/svc/formauthoring/KycForm/fieldgroup/Risk')).statusCode).toBe(
      status,
    );
  });
});

describe('POST /svc/formauthoring/{name or formId}/submit', () => {
  const valid = {
    FullName: '  Ada Lovelace ',
    Email: 'ada@example.com',
    Phone: '+44 20 7946 0958',
    BirthDate: '1815-12-10',
    Nationality: '826',
    IdType: 'passport',
    IdNumber: 'AB123456',
    IdExpiry: '2030-01-31',
    Risk: 'High',
    RiskReason: 'Sanctions screening hit',
    Pep: 'No',
  };

  it('answers the trimmed values of a valid submission, by name or by id, and stores nothing', async () => {
    const before = await snapshotDatabase(db());
    for (const key of ['KycForm', 'kycform', String(formId)]) {
      const response = await submit('staff', key, { DataObject: valid });
      expect(response.statusCode, key).toBe(200);
      expect(response.json()).toEqual({
        message: FORM_SUBMITTED_MESSAGE,
        submittedData: { ...valid, FullName: 'Ada Lovelace' },
      });
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  /** The 400 of a submission with `values`: its errors by label. */
  async function errorsOf(values: Record<string, string>, caller: Caller = 'staff') {
    const response = await submit(caller, 'KycForm', { DataObject: values });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.title).toBe(VALIDATION_PROBLEM_TITLE);
    expect(Object.keys(body)).toEqual(['title', 'errors']);
    return body.errors as Record<string, string[]>;
  }

  it('refuses a missing required value', async () => {
    expect(await errorsOf({ ...valid, FullName: ' ' })).toEqual({
      'Full name': ['Full name is required.'],
    });
  });

  it('refuses values over maxLength, against the pattern, and of the wrong format', async () => {
    expect(
      await errorsOf({
        ...valid,
        FullName: 'x'.repeat(101),
        IdNumber: 'ab-1',
        Email: 'ada',
        Phone: 'call me',
        BirthDate: '1815-02-30',
        Risk: 'Extreme',
        Pep: 'Maybe',
      }),
    ).toEqual({
      'Full name': ['Full name must be 100 characters or less.'],
      'ID number': ['ID number is not in the expected format.'],
      'Email address': ['Email address must be a valid email address.'],
      Phone: ['Phone must be a valid phone number.'],
      'Date of birth': ['Date of birth must be a valid date (yyyy-MM-dd).'],
      Risk: ['Risk must be one of its options.'],
      'Politically exposed': ['Politically exposed must be Yes or No.'],
      // 'Maybe' is not 'No': the details are required too.
      'PEP details': ['Say why, unless the answer is No.'],
    });
  });

  it('refuses a country or document type id that does not exist', async () => {
    expect(await errorsOf({ ...valid, Nationality: '999', IdType: 'no_such_type' })).toEqual({
      Nationality: ['Nationality must be a known country.'],
      'ID type': ['ID type must be a known document type.'],
    });
  });

  it("applies conditional requirements: 'any' and '!' (none)", async () => {
    expect(await errorsOf({ ...valid, RiskReason: '' })).toEqual({
      'Risk reason': ["Risk reason is required when Risk is 'High'."],
    });
    const { RiskReason: _reason, ...low } = valid;
    expect(
      (await submit('staff', 'KycForm', { DataObject: { ...low, Risk: 'Low' } })).statusCode,
    ).toBe(200);
    expect(await errorsOf({ ...valid, Pep: 'Yes' })).toEqual({
      'PEP details': ['Say why, unless the answer is No.'],
    });
    const withDetails = { ...valid, Pep: 'Yes', PepDetails: 'Minister of finance' };
    expect((await submit('staff', 'KycForm', { DataObject: withDetails })).statusCode).toBe(200);
  });

  it('applies requireFields: a value in one field requires the listed ones', async () => {
    expect(await errorsOf({ ...valid, IdExpiry: '' })).toEqual({
      'ID expiry': ['ID expiry is required when ID number is filled in.'],
    });
    const { IdNumber: _number, IdExpiry: _expiry, ...without } = valid;
    expect((await submit('staff', 'KycForm', { DataObject: without })).statusCode).toBe(200);
  });

  it('refuses a key that is no field of the form, under the key', async () => {
    expect(await errorsOf({ ...valid, Extra: 'x' })).toEqual({
      Extra: ['Not a field of this form.'],
    });
  });

  it('refuses a value for a field the caller may not edit; an admin may', async () => {
    expect(await errorsOf({ ...valid, Rating: 'A' })).toEqual({
      'Internal rating': ['Internal rating cannot be changed by your account.'],
    });
    const response = await submit('admin', 'KycForm', { DataObject: { ...valid, Rating: 'A' } });
    expect(response.statusCode).toBe(200);
  });

  it('answers 404 for an unknown form name or id, 400 for a key that is neither', async () => {
    expect((await submit('staff', 'Nope', { DataObject: {} })).json()).toEqual({
      message: 'Form Nope not found.',
    });
    expect((await submit('staff', 99999, { DataObject: {} })).statusCode).toBe(404);
    for (const key of ['0', '01', '_x', '9'.repeat(12)]) {
      const response = await submit('staff', key, { DataObject: {} });
      expect(response.statusCode, key).toBe(400);
      expect(response.json().errors[0].path, key).toBe('nameOrId');
    }
  });

  it('refuses malformed bodies, naming the problem', async () => {
    const cases: [unknown, string][] = [
      ['{"DataObject":', 'not valid JSON'],
      [{}, 'DataObject'],
      [{ DataObject: [] }, 'DataObject'],
      [{ DataObject: { FullName: 5 } }, 'Each value must be a string'],
      [{ DataObject: { FullName: 'a\u0000b' } }, 'NUL'],
      [{ DataObject: { FullName: 'a\ud800b' } }, 'lone surrogate'],
      [{ DataObject: { FullName: 'x'.repeat(10_001) } }, '10000 characters'],
      [{ DataObject: { ['x'.repeat(51)]: 'v' } }, '50 characters'],
    ];
    const before = await snapshotDatabase(db());
    for (const [body, text] of cases) {
      const response = await submit('staff', 'KycForm', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.json().message).toContain(text);
    }
    expect(await snapshotDatabase(db())).toEqual(before);
  });

  it.each(REFUSED)('refuses %s with %i', async (caller, status) => {
    expect((await submit(caller, 'KycForm', { DataObject: valid })).statusCode).toBe(status);
  });
});
