import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { countryImportFile, documentTypeImportFile } from '@console/contracts';
import { renderScreen } from '@/app/testing/screen';
import { ApiError } from '@/lib/api-client';
import { ImportJsonButton } from './import-json-button';

const germany = { id: 276, alpha2: 'DE', alpha3: 'DEU', name: 'Germany' };

function jsonFile(content: unknown, name = 'countries.json') {
  return new File([typeof content === 'string' ? content : JSON.stringify(content)], name, {
    type: name.endsWith('.json') ? 'application/json' : 'text/plain',
  });
}

type ImportRecords = (records: unknown[]) => Promise<{ count: number }>;

function renderButton(importRecords: ImportRecords, file = countryImportFile) {
  renderScreen(
    <ImportJsonButton
      label="Import Countries"
      file={file as typeof countryImportFile}
      importRecords={importRecords}
      successMessage={(count) => `Imported ${count} countries`}
    />,
  );
  return importRecords;
}

/** The hidden file input behind the button (the picker a user sees is the browser's own). */
function fileInput() {
  return screen.getByLabelText<HTMLInputElement>('Import Countries', { selector: 'input' });
}

async function choose(file: File) {
  // applyAccept: false lets a .csv through, as a user choosing "All files" in the picker can.
  const user = userEvent.setup({ applyAccept: false });
  await user.upload(fileInput(), file);
}

let importRecords: Mock<ImportRecords>;
beforeEach(() => {
  importRecords = vi.fn<ImportRecords>(async () => ({ count: 1 }));
});
afterEach(() => vi.restoreAllMocks());

describe('ImportJsonButton', () => {
  it('opens the file picker for .json files from its button', async () => {
    const user = userEvent.setup();
    renderButton(importRecords);
    const click = vi.spyOn(fileInput(), 'click');
    await user.click(screen.getByRole('button', { name: 'Import Countries' }));
    expect(click).toHaveBeenCalledOnce();
    expect(fileInput()).toHaveAttribute('accept', '.json,application/json');
  });

  it('sends the records and shows the count', async () => {
    importRecords.mockResolvedValue({ count: 249 });
    renderButton(importRecords);
    await choose(jsonFile([germany]));
    expect(await screen.findByText('Imported 249 countries')).toBeVisible();
    expect(importRecords).toHaveBeenCalledExactlyOnceWith([germany]);
  });

  // The document types file is typed apart from the countries one; the button takes either.
  const typesFile = documentTypeImportFile as never;
  it.each([
    [
      "another file type with 'Please select a JSON file'",
      countryImportFile,
      jsonFile([germany], 'countries.csv'),
      'Please select a JSON file',
    ],
    [
      "a file that is not JSON with 'Invalid JSON file format'",
      countryImportFile,
      jsonFile('[{"id": 276,'),
      'Invalid JSON file format',
    ],
    [
      'JSON that is not an array',
      countryImportFile,
      jsonFile({ countries: [germany] }),
      'Invalid JSON format. Expected an array of countries',
    ],
    [
      'a country record without its required fields',
      countryImportFile,
      jsonFile([germany, { id: 250, alpha2: 'FR', name: 'France' }]),
      'Invalid data structure. Each country must have id (a number), alpha2, alpha3 and name; the record at index 1 does not.',
    ],
    [
      'a document type record without its required fields',
      typesFile,
      jsonFile([{ id: 'passport', displayName: 'Passport', tags: [] }], 'types.json'),
      'Invalid data structure. Each document type must have id, displayName, a tags array and an apiReferences object; the record at index 0 does not.',
    ],
    [
      'a document types file that is not an array, saying what it must be an array of',
      typesFile,
      jsonFile({ id: 'passport' }, 'types.json'),
      'Invalid JSON format. Expected an array of document types',
    ],
  ])('refuses %s', async (_, importFile, file, message) => {
    renderButton(importRecords, importFile);
    await choose(file);
    expect(await screen.findByText(message)).toBeVisible();
    expect(importRecords).not.toHaveBeenCalled();
  });

  it("says 'Import failed: {message}' with the server's own message", async () => {
    importRecords.mockRejectedValue(
      new ApiError('API request to api/countries/import failed with status 400', {
        status: 400,
        statusText: 'Bad Request',
        data: { message: 'Record at index 0: alpha2 must be exactly 2 letters (A-Z)' },
      }),
    );
    renderButton(importRecords);
    await choose(jsonFile([{ ...germany, alpha2: 'DEU' }]));
    expect(
      await screen.findByText(
        'Import failed: Record at index 0: alpha2 must be exactly 2 letters (A-Z)',
      ),
    ).toBeVisible();
  });

  it("says 'Import failed: {message}' with the client's message without a server message", async () => {
    importRecords.mockRejectedValue(
      new ApiError('Network error while fetching api/countries/import: offline', {
        statusText: 'Network Error',
      }),
    );
    renderButton(importRecords);
    await choose(jsonFile([germany]));
    expect(
      await screen.findByText(
        'Import failed: Network error while fetching api/countries/import: offline',
      ),
    ).toBeVisible();
  });

  it('is busy while importing and accepts the same file again afterwards', async () => {
    let finish: (value: { count: number }) => void = () => {};
    importRecords.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    renderButton(importRecords);
    const file = jsonFile([germany]);
    await choose(file);
    const busy = await screen.findByRole('button', { name: 'Importing...' });
    expect(busy).toBeDisabled();
    finish({ count: 0 });
    expect(await screen.findByText('Imported 0 countries')).toBeVisible();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Import Countries' })).toBeEnabled(),
    );

    importRecords.mockResolvedValue({ count: 0 });
    await choose(file);
    await waitFor(() => expect(importRecords).toHaveBeenCalledTimes(2));
  });
});
