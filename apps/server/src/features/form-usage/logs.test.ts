import { beforeAll, describe, expect, it } from 'vitest';
import { insertFields, insertForm } from '../../../test/form-rows.ts';
import { multipart } from '../../../test/multipart.ts';
import { useReferenceDataTestApp } from '../../../test/reference-data.ts';

/**
 * No value of a form reaches the log (ARCHITECTURE.md, "logging"), whatever the level: not the
 * values of a test submission or a profile, not a file's name or content, not the token.
 */

const lines: string[] = [];
const suite = useReferenceDataTestApp(
  undefined,
  { logLevel: 'trace', eventWorkersEnabled: false },
  {
    logStream: { write: (line: string) => lines.push(line) },
  },
);
const SECRET = 'Secret-5be1c0de-form-value';

let tenantId: number;

beforeAll(async () => {
  const { db } = suite.testApp.database;
  const ids = await insertFields(db, [
    { name: 'LegalName', required: true },
    { name: 'Passport', type: 'FileUpload' },
  ]);
  await insertForm(db, 'EditTenantProfile', ids);
  await insertForm(db, 'TestForm', ids);
  tenantId = (await db.selectFrom('tenants').select('id').executeTakeFirstOrThrow()).id;
});

const profile = (formData: Record<string, string>, file: Buffer) =>
  multipart([
    { name: 'Target', value: 'Tenant' },
    { name: 'TenantId', value: String(tenantId) },
    { name: 'FormData', value: JSON.stringify(formData) },
    { name: 'DataObject.Passport', fileName: `${SECRET}.pdf`, content: file },
  ]);

describe('the log of form submissions', () => {
  it('holds no submitted value, file name, file content or token, even at trace level', async () => {
    const calls = [
      () =>
        suite.call('staff', 'POST', '/svc/formauthoring/TestForm/submit', {
          DataObject: { LegalName: SECRET },
        }),
      () =>
        suite.call('staff', 'POST', '/svc/formauthoring/TestForm/submit', {
          DataObject: { [SECRET]: SECRET },
        }),
      () =>
        suite.call(
          'staff',
          'POST',
          '/svc/formauthoring/TestForm/submit',
          `{"DataObject":{"LegalName":"${SECRET}`,
        ),
      () => {
        const { payload, headers } = profile(
          { 'DataObject.LegalName': SECRET },
          Buffer.from(SECRET),
        );
        return suite.call('staff', 'POST', '/svc/formusage/submit', payload, headers);
      },
      // Refused after its parts were read: the tenant profile is staff's.
      () => {
        const { payload, headers } = profile(
          { 'DataObject.LegalName': SECRET },
          Buffer.from(SECRET),
        );
        return suite.call('tenant', 'POST', '/svc/formusage/submit', payload, headers);
      },
      () => {
        const { payload, headers } = profile(
          { [`DataObject.${SECRET}`]: SECRET },
          Buffer.from(SECRET),
        );
        return suite.call('staff', 'POST', '/svc/formusage/submit', payload, headers);
      },
      () => {
        const { payload, headers } = profile(
          { 'DataObject.LegalName': 'x' },
          Buffer.alloc(11 * 1024 * 1024, SECRET),
        );
        return suite.call('staff', 'POST', '/svc/formusage/submit', payload, headers);
      },
    ];
    const statuses = [];
    for (const call of calls) statuses.push((await call()).statusCode);
    expect(statuses).toEqual([200, 400, 400, 200, 403, 400, 413]);
    expect(lines.length).toBeGreaterThan(0);
    const log = lines.join('\n');
    expect(log).toContain('starting multipart parsing');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(suite.tokenOf('staff'));
    expect(log).not.toContain(suite.tokenOf('tenant'));
  });
});
