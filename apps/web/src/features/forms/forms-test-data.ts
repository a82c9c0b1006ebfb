/**
 * Test data of the forms screen's tests: catalogue fields, list items and definitions shaped as
 * the forms service answers them, and the steps its dialog tests share.
 */
import { expect } from 'vitest';
import { within } from '@testing-library/react';
import type { FormDefinition, FormField, FormListItem } from '@console/contracts';
import { aFormField } from '@console/contracts/testing';
import { chooseOption, type User } from '@/test/queries';

export function catalogueField(
  id: number,
  name: string,
  displayName: string,
  uiGroup: string,
  order: number | null,
): FormField {
  return aFormField({ id, name, displayName, uiGroup, order });
}

/** Two groups: Personal (first name, last name, birth date without order) and Address. */
export const FIRST_NAME = catalogueField(1, 'FirstName', 'First Name', 'Personal', 1);
export const LAST_NAME = catalogueField(2, 'LastName', 'Last Name', 'Personal', 2);
export const BIRTH_DATE = catalogueField(3, 'BirthDate', 'Birth Date', 'Personal', null);
export const STREET = catalogueField(4, 'Street', 'Street', 'Address', 1);
export const CITY = catalogueField(5, 'City', 'City', 'Address', 2);
export const CATALOGUE = [FIRST_NAME, LAST_NAME, BIRTH_DATE, STREET, CITY];

export function formItem(
  id: number,
  name: string,
  updatedAt = '2026-02-03T04:05:00.000Z',
): FormListItem {
  return { id, name, createdAt: '2026-01-02T03:04:00.000Z', updatedAt };
}

export function definition(
  item: FormListItem,
  fields: number[],
  more: Partial<FormDefinition> = {},
): FormDefinition {
  return {
    ...item,
    description: `About ${item.name}`,
    fields,
    uiGroupOrder: [],
    colSpanOverride: 0,
    field_definitions: CATALOGUE.filter((field) => fields.includes(field.id)),
    ...more,
  };
}

/** The option of a catalogue field in the dialog's picker. */
export const optionName = (field: FormField) =>
  `${field.displayName} (${field.name}) · ${field.uiGroup}`;

/** Picks `field` in the dialog's field picker and adds it. */
export async function addField(user: User, dialog: HTMLElement, field: FormField): Promise<void> {
  await chooseOption(user, dialog, 'Field to add', optionName(field));
  await user.click(within(dialog).getByRole('button', { name: 'Add field' }));
}

/** The texts of the selected fields list, in order. */
export function selectedFields(dialog: HTMLElement): string[] {
  const list = within(dialog).queryByRole('list', { name: 'Selected fields' });
  if (!list) return [];
  // Each item's remove button is named after it.
  return within(list)
    .getAllByRole('button')
    .map((button) => (button.getAttribute('aria-label') ?? '').replace(/^Remove /, ''));
}

/** The groups of the UI group order list, in order. */
export function groupOrder(dialog: HTMLElement): string[] {
  const list = within(dialog).queryByRole('list', { name: 'UI group order' });
  if (!list) return [];
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

/** The message under the dialog's field `label` (its accessible description). */
export function expectFieldMessage(dialog: HTMLElement, label: string, message: string): void {
  const input = within(dialog).getByLabelText(label);
  expect(input).toHaveAttribute('aria-invalid', 'true');
  expect(input).toHaveAccessibleDescription(expect.stringContaining(message));
}
