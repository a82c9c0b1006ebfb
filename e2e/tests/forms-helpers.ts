import { expect, type Locator, type Page } from '@playwright/test';
import { signedInApi } from './helpers.ts';

/**
 * Verbs of the forms scenarios (spec part 2, "Forms list", "Form fields list", the field,
 * form-definition and form-test dialogs; part 1, the profile dialogs): the screens, the
 * server-rendered fields inside a dialog, and the API calls a test makes to set up and clean up
 * its own fields, forms and tenants.
 */

/** A name unique to this run and call, usable as a storage or form name (letters and digits). */
export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** The Forms screen, loaded: returns its table. */
export async function goToForms(page: Page): Promise<Locator> {
  return goToScreen(page, '/dashboard/forms', 'Forms');
}

/** The Form Fields screen, loaded: returns its table. */
export async function goToFormFields(page: Page): Promise<Locator> {
  return goToScreen(page, '/dashboard/form-fields', 'Form Fields');
}

async function goToScreen(page: Page, path: string, title: string): Promise<Locator> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const table = page.getByRole('table', { name: title });
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
  await expect(table.getByRole('rowgroup').nth(1).getByRole('row').first()).not.toBeEmpty();
  return table;
}

/**
 * One field of a server-rendered form (its `df-field` cell), found by its display name: the
 * cell carries the label, the control, the note and the error line.
 */
export function renderedField(scope: Locator, displayName: string): Locator {
  return scope.locator(`.df-field[data-label="${displayName.replaceAll('"', '\\"')}"]`);
}

/** The control of a rendered field (input, select or textarea). */
export function renderedControl(scope: Locator, displayName: string): Locator {
  return renderedField(scope, displayName).locator('input, select, textarea').first();
}

/** Chooses `option` of a Radix select (a combobox button and its listbox) in `scope`. */
export async function chooseFrom(scope: Locator, combobox: string | RegExp, option: string) {
  await scope.getByRole('combobox', { name: combobox }).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
}

/** A field as POST /svc/formauthoring/fields takes it (the properties a test sets). */
export interface FieldCreate {
  name: string;
  displayName: string;
  type: string;
  uiGroup?: string;
  order?: number;
  required?: boolean;
  maxLength?: number;
  note?: string;
  options?: string[];
}

export interface SavedField extends FieldCreate {
  id: number;
}

export interface FormListItem {
  id: number;
  name: string;
}

export interface EventItem {
  eventName: string;
  tenantId: number | null;
  metadata: Record<string, unknown>;
}

/** The forms services and the few other calls the scenarios need, as the signed-in user. */
export async function formsApiAs(page: Page) {
  const { json, get, post, delete: remove } = await signedInApi(page);
  return {
    createField: (field: FieldCreate) => json<SavedField>(post('/svc/formauthoring/fields', field)),
    fields: () => json<SavedField[]>(get('/svc/formauthoring/allfields')),
    /** Deletes a field of this run (a 404 is fine: the test may have deleted it already). */
    deleteField: (id: number) => remove(`/svc/formauthoring/fields/${id}`),
    createForm: (form: { name: string; description?: string; fields: number[] }) =>
      json<FormListItem>(post('/svc/formauthoring', form)),
    forms: () => json<FormListItem[]>(get('/svc/formauthoring/list')),
    deleteForm: (name: string) => remove(`/svc/formauthoring/${encodeURIComponent(name)}`),
    createTenant: (companyName: string, domicileCountryId: number) =>
      json<{ id: number; companyName: string }>(
        post('/api/tenants', { companyName, domicileCountryId, namespaces: [] }),
      ),
    deleteTenant: (id: number) => remove(`/api/tenants/${id}`),
    /** The newest events whose name contains `eventName`. */
    events: async (eventName: string) =>
      (await json<{ data: EventItem[] }>(get(`/api/events?eventName=${eventName}&pageSize=100`)))
        .data,
  };
}
