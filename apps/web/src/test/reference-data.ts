/** Countries and document types as their lists answer them, for screen tests. */
import type { Country, DocumentType } from '@console/contracts';

export function country(id: number, countryName: string): Country {
  return {
    id,
    countryName,
    alpha2Code: 'XX',
    alpha3Code: 'XXX',
    sequence: null,
    validFrom: null,
    validTo: null,
    cachedRisk: null,
    cachedRiskAt: null,
  };
}

export function documentType(id: string, displayName: string): DocumentType {
  return {
    id,
    displayName,
    tags: [],
    apiReferences: {},
    sequence: null,
    validFrom: null,
    validTo: null,
    validityPeriod: null,
  };
}
