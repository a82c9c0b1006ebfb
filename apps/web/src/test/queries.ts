/**
 * Queries and steps that many screen tests share: reading a table's headers or a list's items,
 * opening a dialog, choosing in a combobox and confirming a deletion. Each one finds its elements
 * by role and name, so a test that uses it still fails when the screen stops showing them.
 */
import { expect } from 'vitest';
import { screen, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { mockApi } from '@/app/testing/screen';

type MockApi = ReturnType<typeof mockApi>;

export type User = ReturnType<typeof userEvent.setup>;

/** A step that fills (part of) a dialog, for tables of cases. */
export type Fill = (user: User, dialog: HTMLElement) => Promise<void>;

/** The text of each column header of `table`, in order. */
export function columnHeaders(table: HTMLElement): (string | null)[] {
  return within(table)
    .getAllByRole('columnheader')
    .map((th) => th.textContent);
}

/** The text of each list item inside `list`, in order. */
export function itemTexts(list: HTMLElement): (string | null)[] {
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
}

/** Clicks the button `button` and waits for the dialog it opens (by default of the same name). */
export async function openDialog(
  user: User,
  button: string,
  dialog = button,
): Promise<HTMLElement> {
  await user.click(screen.getByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: dialog });
}

/** Opens the combobox `combobox` inside `container` and picks the option `option`. */
export async function chooseOption(
  user: User,
  container: HTMLElement,
  combobox: string,
  option: string,
): Promise<void> {
  await user.click(within(container).getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Clicks a row's `Delete <name>` button and confirms in the alert dialog titled `title`. */
export async function confirmDelete(user: User, name: string, title: string): Promise<void> {
  await user.click(await screen.findByRole('button', { name: `Delete ${name}` }));
  const dialog = await screen.findByRole('alertdialog', { name: title });
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
}

/** Clicks the Save button of `dialog`. */
export async function save(user: User, dialog: HTMLElement): Promise<void> {
  await user.click(within(dialog).getByRole('button', { name: 'Save' }));
}

/**
 * Saves `dialog` and expects the alert that says required fields are empty, and that nothing was
 * POSTed to `postPath`.
 */
export async function saveExpectingRequiredFieldsAlert(
  user: User,
  dialog: HTMLElement,
  api: Pick<MockApi, 'callsTo'>,
  postPath: string,
): Promise<void> {
  await save(user, dialog);
  expect(await within(dialog).findByRole('alert')).toHaveTextContent(
    'Please fill in all required fields.',
  );
  expect(api.callsTo('POST', postPath)).toHaveLength(0);
}

/** Types `text` into the textbox `name` inside `container`. */
export async function typeInto(
  user: User,
  container: HTMLElement,
  name: string,
  text: string,
): Promise<void> {
  await user.type(within(container).getByRole('textbox', { name }), text);
}
