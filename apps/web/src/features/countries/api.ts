/**
 * The countries calls (spec part 1, section 7) with their query key, and the texts of a failed
 * delete (section 8).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  apiPath,
  countriesApi,
  type Country,
  type CountryChoice,
  countryChoiceListSchema,
  type CountryImportRecord,
  countryListSchema,
  type ImportResult,
  importResultSchema,
} from '@console/contracts';
import { ApiError, api, apiErrorMessage, getParsed } from '@/lib/api-client';
import { useInvalidatingMutation } from '@/lib/invalidating-mutation';

export const countriesQueryKey = ['countries'] as const;
/** The countries as choices (below the list's key: an import makes both stale). */
export const countryChoicesQueryKey = [...countriesQueryKey, 'choices'] as const;

export async function fetchCountries(signal?: AbortSignal): Promise<Country[]> {
  return getParsed(countryListSchema, apiPath(countriesApi.list), signal);
}

/**
 * GET api/countries read as the choices of the forms' Country fields: what a tenant user is
 * answered, and the same fields of a staff member's records.
 */
export async function fetchCountryChoices(signal?: AbortSignal): Promise<CountryChoice[]> {
  return getParsed(countryChoiceListSchema, apiPath(countriesApi.list), signal);
}

/**
 * DELETE api/countries/{id} (admins). A refusal is the screen's to explain, so the 403 of a
 * staff member shows the access-denied text instead of signing out (skipAuthRedirect).
 */
export function deleteCountry(id: number): Promise<void> {
  return api.delete(apiPath(countriesApi.delete, { id }), { skipAuthRedirect: true });
}

export async function importCountries(records: CountryImportRecord[]): Promise<ImportResult> {
  return importResultSchema.parse(await api.post<unknown>(apiPath(countriesApi.import), records));
}

export function useCountriesQuery() {
  return useQuery({
    queryKey: countriesQueryKey,
    queryFn: ({ signal }) => fetchCountries(signal),
  });
}

export function useDeleteCountryMutation() {
  return useMutation({ mutationFn: (country: Country) => deleteCountry(country.id) });
}

export function useImportCountriesMutation() {
  return useInvalidatingMutation(importCountries, countriesQueryKey);
}

/** What a failed country delete says (spec 8, "Delete country"). */
export function deleteCountryErrorText(
  error: unknown,
  country: Pick<Country, 'id' | 'countryName'>,
  t: TFunction,
): string {
  const name = country.countryName || String(country.id);
  switch (error instanceof ApiError ? error.status : undefined) {
    case 403:
      return t('countries.deleteErrors.accessDenied');
    case 404:
      return t('countries.deleteErrors.notFound', { name });
    case 409:
      return t('countries.deleteErrors.inUse', { name });
    default:
      return t('countries.deleteErrors.failed', { message: apiErrorMessage(error) });
  }
}
