import { expect, test, type Locator } from '@playwright/test';
import { admin, signInAs, staffMember, toast } from './helpers.ts';
import { bodyRows, confirmDeletion, goToEntityUsers } from './tenant-helpers.ts';

// Spec part 1: section 2 ("Entity users screen"), section 4 (optimistic key deletion), section 6
// (the delete-key control only for admins), section 8 (key deletion messages).

/** The first row of the page shown whose user has an email and keys to show. */
async function userWithKeys(table: Locator): Promise<{ row: Locator; email: string }> {
  const row = bodyRows(table)
    .filter({ has: table.page().getByRole('button', { name: /^Show keys \(\d+\)$/ }) })
    .filter({ hasText: '@' })
    .first();
  await expect(row).toBeVisible();
  const email = (await row.getByRole('cell').nth(4).innerText()).trim();
  // Pinned by its email: once expanded, the row no longer has a 'Show keys' button.
  return { row: rowOf(table, email).first(), email };
}

function rowOf(table: Locator, email: string): Locator {
  return bodyRows(table).filter({
    has: table.page().getByRole('cell', { name: email, exact: true }),
  });
}

test('an admin deletes a key: it disappears at once and stays gone after a reload', async ({
  page,
}) => {
  await signInAs(page, admin.email);
  const table = await goToEntityUsers(page);
  const { row, email } = await userWithKeys(table);
  const toggle = row.getByRole('button', { name: /^Show keys \(\d+\)$/ });
  const count = Number(/\((\d+)\)/.exec((await toggle.innerText()).trim())?.[1]);
  await toggle.click();
  const keys = row.getByRole('list', { name: /^Keys of / });
  await expect(keys.getByRole('listitem')).toHaveCount(count);

  const deleteButton = keys.getByRole('button', { name: /^Delete key / }).first();
  const keyName = ((await deleteButton.getAttribute('aria-label')) ?? '').replace(
    /^Delete key /,
    '',
  );
  await deleteButton.click();
  await confirmDeletion(page, 'Delete key?');
  await expect(keys.getByRole('listitem')).toHaveCount(count - 1);
  await expect(
    keys.getByRole('button', { name: `Delete key ${keyName}`, exact: true }),
  ).toHaveCount(0);
  await expect(toast(page, `Key ${keyName} deleted`)).toBeVisible();

  await page.reload();
  const reloaded = rowOf(page.getByRole('table', { name: 'Entity Users' }), email).first();
  const label = count - 1 === 0 ? 'No keys' : `Show keys (${count - 1})`;
  if (count - 1 === 0) {
    await expect(reloaded.getByText(label)).toBeVisible();
  } else {
    await reloaded.getByRole('button', { name: label }).click();
    const list = reloaded.getByRole('list', { name: /^Keys of / });
    await expect(list.getByRole('listitem')).toHaveCount(count - 1);
    await expect(
      list.getByRole('button', { name: `Delete key ${keyName}`, exact: true }),
    ).toHaveCount(0);
  }
});

test('a long key value is shown as its first 47 characters and an ellipsis', async ({ page }) => {
  await signInAs(page, admin.email);
  const table = await goToEntityUsers(page);
  const toggles = table.getByRole('button', { name: /^Show keys/ });
  await expect(toggles.first()).toBeVisible();
  while ((await toggles.count()) > 0) await toggles.first().click();
  const shortened = table
    .locator('[title]')
    .filter({ hasText: /\.\.\.$/ })
    .first();
  await expect(shortened).toBeVisible();
  const full = (await shortened.getAttribute('title')) ?? '';
  expect([...full].length).toBeGreaterThan(50);
  await expect(shortened).toHaveText(`${[...full].slice(0, 47).join('')}...`);
});

test('staff see the keys but no delete-key control', async ({ page }) => {
  await signInAs(page, staffMember.email);
  const table = await goToEntityUsers(page);
  const { row } = await userWithKeys(table);
  await row.getByRole('button', { name: /^Show keys/ }).click();
  await expect(
    row
      .getByRole('list', { name: /^Keys of / })
      .getByRole('listitem')
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete key/ })).toHaveCount(0);
});
