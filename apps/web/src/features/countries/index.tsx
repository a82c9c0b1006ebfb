/**
 * The countries screen (spec part 1, section 2, "Countries screen"): the sortable, paged table of
 * countries, importing countries from a JSON file, the way to the FATF import, and deleting a
 * country (admins; section 8 gives every refusal's text).
 */
import { useMemo, useRef } from 'react';
import { FileSpreadsheetIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiPath, countriesApi, countryImportFile, type Country } from '@console/contracts';
import { paths } from '@/app/paths';
import {
  AddButton,
  DeleteRowDialog,
  ListScreen,
  QueryTable,
  type DataTableHandle,
  useRowDialogs,
} from '@/components/data-table';
import { ImportJsonButton } from '@/components/import-json-button';
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
import { addNamespaces } from '@/lib/i18n';
import { countries } from '@/locales/en.json?countries&lang.json';

addNamespaces({ countries });

export default function CountriesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const importCountries = useImportCountriesMutation();

  return (
    <ListScreen
      title={t('pages.countries')}
      exportList={{ path: apiPath(countriesApi.export), name: 'countries' }}
      actions={
        <>
          {/* Adding a single country is not offered yet (spec: "add country (disabled)"). */}
          <AddButton label={t('countries.add')} />
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
    >
      <CountriesTable />
    </ListScreen>
  );
}

function CountriesTable() {
  const { t } = useTranslation();
  const countries = useCountriesQuery();
  const deleteCountry = useDeleteCountryMutation();
  const tableRef = useRef<DataTableHandle>(null);
  const dialogs = useRowDialogs<'delete', Country>();
  const { show } = dialogs;
  const columns = useMemo(
    () => countriesColumns(t, { onDelete: (country) => show('delete', country) }),
    [t, show],
  );

  return (
    <>
      <QueryTable<Country>
        ref={tableRef}
        query={countries}
        columns={columns}
        label={t('pages.countries')}
        emptyText={t('countries.empty')}
        pageSizeKey={PAGE_SIZE_KEYS.countries}
        getRowId={(row) => String(row.id)}
      />
      <DeleteRowDialog<Country>
        dialogs={dialogs}
        mutation={deleteCountry}
        queryKey={countriesQueryKey}
        tableRef={tableRef}
        title={t('countries.deleteTitle')}
        description={(row) =>
          t('countries.deleteDescription', { name: row.countryName, id: row.id })
        }
        confirmLabel={t('countries.deleteConfirm')}
        successText={(row) => t('countries.deleted', { name: row.countryName })}
        errorText={(error, row) => deleteCountryErrorText(error, row, t)}
      />
    </>
  );
}
