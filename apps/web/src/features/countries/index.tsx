/**
 * The countries screen (spec part 1, section 2, "Countries screen"): the sortable, paged table of
 * countries, importing countries from a JSON file, the way to the FATF import, and deleting a
 * country (admins; section 8 gives every refusal's text).
 */
import { useMemo, useRef, useState } from 'react';
import { FileSpreadsheetIcon, PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { countryImportFile, type Country } from '@console/contracts';
import { paths } from '@/app/paths';
import {
  ConfirmDialog,
  DataTable,
  WaitingForConfiguration,
  type DataTableHandle,
  useDeleteRow,
} from '@/components/data-table';
import { ImportJsonButton } from '@/components/import-json-button';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { PAGE_SIZE_KEYS } from '@/lib/storage-keys';
import {
  countriesQueryKey,
  deleteCountryErrorText,
  useCountriesQuery,
  useDeleteCountryMutation,
  useImportCountriesMutation,
} from './api';
import { countriesColumns } from './countries-columns';

/** Which dialog is open, and for which country (kept while the dialog closes). */
interface DialogState {
  open: 'delete' | null;
  currentRow: Country | null;
}

export default function CountriesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const importCountries = useImportCountriesMutation();

  return (
    <>
      <PageHeader
        title={t('pages.countries')}
        actions={
          <>
            {/* Adding a single country is not offered yet (spec: "add country (disabled)"). */}
            <Button disabled>
              <PlusIcon aria-hidden="true" />
              {t('countries.add')}
            </Button>
            <ImportJsonButton
              label={t('countries.import')}
              file={countryImportFile}
              importRecords={importCountries.mutateAsync}
              successMessage={(count) => t('countries.imported', { count })}
            />
            <Button variant="outline" onClick={() => void navigate(paths.fatfImport())}>
              <FileSpreadsheetIcon aria-hidden="true" />
              {t('countries.importFatf')}
            </Button>
          </>
        }
      />
      <WaitingForConfiguration>
        <CountriesTable />
      </WaitingForConfiguration>
    </>
  );
}

function CountriesTable() {
  const { t } = useTranslation();
  const countries = useCountriesQuery();
  const deleteCountry = useDeleteCountryMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const [dialog, setDialog] = useState<DialogState>({ open: null, currentRow: null });

  const columns = useMemo(
    () =>
      countriesColumns(t, {
        onDelete: (country) => setDialog({ open: 'delete', currentRow: country }),
      }),
    [t],
  );

  const closeDialog = () => setDialog((current) => ({ ...current, open: null }));
  const country = dialog.currentRow;

  const deleteRow = useDeleteRow<Country>({
    mutate: deleteCountry.mutate,
    queryKey: countriesQueryKey,
    tableRef,
    successText: (row) => t('countries.deleted', { name: row.countryName }),
    errorText: (error, row) => deleteCountryErrorText(error, row, t),
    onSettled: closeDialog,
  });

  return (
    <>
      <DataTable<Country>
        ref={tableRef}
        columns={columns}
        data={countries.data}
        label={t('pages.countries')}
        emptyText={t('countries.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.countries}
        getRowId={(row) => String(row.id)}
        isLoading={countries.isPending}
        error={countries.isError ? countries.error : undefined}
        onRetry={() => void countries.refetch()}
      />
      <ConfirmDialog
        open={dialog.open === 'delete'}
        onOpenChange={(open) => {
          if (!open) closeDialog();
        }}
        title={t('countries.deleteTitle')}
        description={
          country
            ? t('countries.deleteDescription', { name: country.countryName, id: country.id })
            : ''
        }
        confirmLabel={t('countries.deleteConfirm')}
        destructive
        isPending={deleteCountry.isPending}
        onConfirm={() => country && deleteRow(country)}
      />
    </>
  );
}
