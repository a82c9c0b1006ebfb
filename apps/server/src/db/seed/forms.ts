import {
  documentTypeIdSchema,
  expectedFormName,
  formDefinitionCreateSchema,
  formFieldCreateSchema,
  type FormFieldCreate,
  type ParsedFormFieldWrite,
} from '@console/contracts';
import { sql, type Kysely } from 'kysely';
import { FormFieldsAndProfiles } from '../migrations/0015-form-fields-and-profiles.ts';
import { formFieldColumns } from '../../features/form-fields/queries.ts';
import type { Database } from '../schema.ts';
import { insertMissing, seedStamps } from './common.ts';

/**
 * The demo field catalogue and forms (docs/forms.md): the fields a compliance team asks of a
 * company (the tenant and entity profiles) and of a person's identity document, and the forms
 * EditTenantProfile, EditEntityProfile and the EditIndividualId_ forms of the passport and the
 * driving licence only, so that the document types screen still flags the other document types
 * (their ID cell is yellow until their form exists).
 */

type SeedField = FormFieldCreate & { name: string; uiGroup: string; order: number };

// Groups of the catalogue, in the order the profile forms show them.
const COMPANY = 'Company';
const REGISTERED_ADDRESS = 'Registered Address';
const CONTACT = 'Contact';
const COMPLIANCE = 'Compliance';
const PERSONAL_DETAILS = 'Personal Details';
const IDENTITY_DOCUMENT = 'Identity Document';

/** ISO 3166-1 numeric codes (country ids) of countries without postcodes used in the demo. */
const HONG_KONG = '344';
const UNITED_ARAB_EMIRATES = '784';

const FIELDS: SeedField[] = [
  // Company.
  {
    name: 'CompanyName',
    displayName: 'Registered company name',
    type: 'Text',
    uiGroup: COMPANY,
    order: 10,
    section: 'Basic Information',
    required: true,
    maxLength: 160,
    note: 'Exactly as shown on the certificate of incorporation.',
    printLabel: 'Company name',
    print: true,
    printSequence: 1,
    tags: ['company', 'kyb'],
    apiReferences: { companieshouse: 'company_name', opencorporates: 'name' },
  },
  {
    name: 'CompanyRegistrationNumber',
    displayName: 'Company registration number',
    type: 'Text',
    uiGroup: COMPANY,
    order: 30,
    required: true,
    maxLength: 8,
    // Companies House: eight digits, or a two-letter prefix (SC, NI, OC, ...) and six digits.
    pattern: '[0-9]{8}|[A-Z]{2}[0-9]{6}',
    validationErrorMessage:
      'Enter the 8-character company number, for example 01234567 or SC123456.',
    note: 'The number given by the companies registry (8 characters in the UK).',
    print: true,
    printSequence: 2,
    tags: ['company', 'kyb', 'registry'],
    apiReferences: { companieshouse: 'company_number', opencorporates: 'company_number' },
  },
  {
    name: 'LegalForm',
    displayName: 'Legal form',
    type: 'Select',
    uiGroup: COMPANY,
    order: 40,
    required: true,
    options: [
      'Private limited company (Ltd)',
      'Public limited company (plc)',
      'Limited liability partnership (LLP)',
      'Limited partnership (LP)',
      'Sole trader',
      'Charity or non-profit',
      'Trust',
      'Other',
    ],
    tags: ['company', 'kyb'],
    apiReferences: { companieshouse: 'company_type' },
  },
  {
    name: 'LegalFormOther',
    displayName: 'Other legal form',
    type: 'Text',
    uiGroup: COMPANY,
    order: 50,
    maxLength: 100,
    conditionalRequirements: [
      {
        fieldName: 'LegalForm',
        triggerValues: ['Other'],
        validationMessage: 'Describe the legal form when it is not in the list.',
      },
    ],
  },
  {
    name: 'DateOfIncorporation',
    displayName: 'Date of incorporation',
    type: 'Date',
    uiGroup: COMPANY,
    order: 60,
    required: true,
    tags: ['company'],
    apiReferences: { companieshouse: 'date_of_creation' },
  },
  {
    name: 'CountryOfIncorporation',
    displayName: 'Country of incorporation',
    type: 'Country',
    uiGroup: COMPANY,
    order: 70,
    required: true,
    tags: ['company', 'jurisdiction'],
    apiReferences: { opencorporates: 'jurisdiction_code' },
  },
  {
    name: 'IndustrySector',
    displayName: 'Industry sector',
    type: 'Select',
    uiGroup: COMPANY,
    order: 80,
    required: true,
    note: 'The main activity of the company (NACE section).',
    options: [
      'Agriculture, forestry and fishing',
      'Manufacturing',
      'Construction',
      'Wholesale and retail trade',
      'Information and communication',
      'Financial and insurance activities',
      'Real estate activities',
      'Professional, scientific and technical activities',
      'Gambling and betting',
      'Crypto-asset services',
      'Other',
    ],
    tags: ['company', 'risk'],
  },
  {
    name: 'LeiCode',
    displayName: 'Legal Entity Identifier (LEI)',
    type: 'Text',
    uiGroup: COMPANY,
    order: 100,
    maxLength: 20,
    // ISO 17442: 18 letters or digits and two check digits.
    pattern: '[A-Z0-9]{18}[0-9]{2}',
    validationErrorMessage: 'An LEI is 20 characters: 18 letters or digits, then 2 digits.',
    tags: ['company', 'registry'],
    apiReferences: { gleif: 'lei' },
  },

  // Registered address.
  {
    name: 'RegisteredAddressLine1',
    displayName: 'Address line 1',
    type: 'Text',
    uiGroup: REGISTERED_ADDRESS,
    order: 10,
    required: true,
    maxLength: 100,
    tags: ['address'],
    apiReferences: { companieshouse: 'registered_office_address.address_line_1' },
  },
  {
    name: 'RegisteredCity',
    displayName: 'Town or city',
    type: 'Text',
    uiGroup: REGISTERED_ADDRESS,
    order: 30,
    required: true,
    maxLength: 100,
    tags: ['address'],
    apiReferences: { companieshouse: 'registered_office_address.locality' },
  },
  {
    name: 'RegisteredPostcode',
    displayName: 'Postcode',
    type: 'Text',
    uiGroup: REGISTERED_ADDRESS,
    order: 40,
    maxLength: 10,
    note: 'Not needed in Hong Kong and the United Arab Emirates, which have no postcodes.',
    tags: ['address'],
    apiReferences: { companieshouse: 'registered_office_address.postal_code' },
    // The 'none' kind: required when the country is none of these.
    conditionalRequirements: [
      {
        fieldName: 'RegisteredCountry',
        triggerValues: [`!${HONG_KONG}`, `!${UNITED_ARAB_EMIRATES}`],
        validationMessage: 'Postcode is required for an address in this country.',
      },
    ],
  },
  {
    name: 'RegisteredCountry',
    displayName: 'Country',
    type: 'Country',
    uiGroup: REGISTERED_ADDRESS,
    order: 50,
    required: true,
    tags: ['address', 'jurisdiction'],
  },
  {
    name: 'TradingAddressDiffers',
    displayName: 'The trading address differs from the registered address',
    type: 'Checkbox',
    uiGroup: REGISTERED_ADDRESS,
    order: 60,
    tags: ['address'],
  },
  {
    name: 'TradingAddress',
    displayName: 'Trading address',
    type: 'Text',
    uiGroup: REGISTERED_ADDRESS,
    order: 70,
    maxLength: 500,
    note: 'The full address where the business is run, including postcode and country.',
    tags: ['address'],
    conditionalRequirements: [
      {
        fieldName: 'TradingAddressDiffers',
        triggerValues: ['true'],
        validationMessage: 'Enter the trading address, or untick the box above.',
      },
    ],
  },

  // Contact.
  {
    name: 'ContactName',
    displayName: 'Contact name',
    type: 'Text',
    uiGroup: CONTACT,
    order: 10,
    required: true,
    maxLength: 200,
    tags: ['contact'],
  },
  {
    name: 'ContactEmail',
    displayName: 'Email address',
    type: 'Email',
    uiGroup: CONTACT,
    order: 30,
    required: true,
    maxLength: 254,
    note: 'Compliance requests and review reminders are sent here.',
    tags: ['contact'],
    apiReferences: { crm: 'email' },
  },
  {
    name: 'ContactPhone',
    displayName: 'Phone number',
    type: 'PhoneNumber',
    uiGroup: CONTACT,
    order: 40,
    maxLength: 30,
    note: 'In international format, for example +44 20 7946 0958.',
    tags: ['contact'],
    apiReferences: { crm: 'phone' },
  },

  // Compliance.
  {
    name: 'IsRegulated',
    displayName: 'Regulated by a financial authority',
    type: 'DropdownYesNo',
    uiGroup: COMPLIANCE,
    order: 10,
    required: true,
    tags: ['aml', 'regulation'],
  },
  {
    name: 'RegulatorName',
    displayName: 'Regulator',
    type: 'Text',
    uiGroup: COMPLIANCE,
    order: 20,
    maxLength: 200,
    note: 'For example the Financial Conduct Authority (FCA) or BaFin.',
    // A regulator named needs its reference number too.
    requireFields: ['RegulatorReference'],
    tags: ['aml', 'regulation'],
    conditionalRequirements: [
      {
        fieldName: 'IsRegulated',
        triggerValues: ['Yes'],
        validationMessage: 'Name the regulator of a regulated company.',
      },
    ],
  },
  {
    name: 'RegulatorReference',
    displayName: 'Regulator reference number',
    type: 'Text',
    uiGroup: COMPLIANCE,
    order: 30,
    maxLength: 50,
    tags: ['aml', 'regulation'],
  },
  {
    name: 'UltimateBeneficialOwners',
    displayName: 'Ultimate beneficial owners',
    type: 'PartyList',
    uiGroup: COMPLIANCE,
    order: 40,
    required: true,
    maxLength: 4000,
    note: 'One person per line: full name, date of birth and share held. List everyone holding 25% or more.',
    tags: ['aml', 'ubo', 'kyb'],
    apiReferences: { companieshouse: 'persons_with_significant_control' },
  },
  {
    name: 'IsPep',
    displayName: 'A director or owner is a politically exposed person',
    type: 'DropdownYesNo',
    uiGroup: COMPLIANCE,
    order: 60,
    required: true,
    tags: ['aml', 'pep', 'risk'],
  },
  {
    name: 'PepDetails',
    displayName: 'Politically exposed persons',
    type: 'Text',
    uiGroup: COMPLIANCE,
    order: 70,
    maxLength: 1000,
    note: 'Who, which public function, and since when.',
    tags: ['aml', 'pep'],
    conditionalRequirements: [
      {
        fieldName: 'IsPep',
        triggerValues: ['Yes'],
        validationMessage: 'Describe each politically exposed person.',
      },
    ],
  },
  {
    name: 'SourceOfFunds',
    displayName: 'Source of funds',
    type: 'Text',
    uiGroup: COMPLIANCE,
    order: 80,
    required: true,
    maxLength: 1000,
    note: 'Where the money passing through the account comes from.',
    tags: ['aml', 'risk'],
  },
  {
    name: 'CertificateOfIncorporation',
    displayName: 'Certificate of incorporation',
    type: 'FileUpload',
    uiGroup: COMPLIANCE,
    order: 100,
    note: 'A PDF or a photo of the certificate, at most 10 MB.',
    tags: ['kyb', 'document'],
  },
  {
    name: 'RiskRating',
    displayName: 'Risk rating',
    type: 'Select',
    uiGroup: COMPLIANCE,
    order: 110,
    section: 'Internal review',
    options: ['Low', 'Medium', 'High'],
    note: 'Set by the compliance team after review.',
    // The customer sees the rating; only staff set it.
    editPermissions: ['staff'],
    tags: ['risk', 'internal'],
  },
  {
    name: 'ScreeningNotes',
    displayName: 'Screening notes',
    type: 'Text',
    uiGroup: COMPLIANCE,
    order: 120,
    section: 'Internal review',
    maxLength: 2000,
    note: 'Sanctions and adverse media screening: hits reviewed and why they were cleared.',
    // Internal: neither shown to nor changed by the customer.
    viewPermissions: ['staff'],
    editPermissions: ['staff'],
    tags: ['aml', 'sanctions', 'internal'],
  },
  {
    name: 'DeclarationAccepted',
    displayName: 'I confirm the information given is accurate and complete',
    type: 'Checkbox',
    uiGroup: COMPLIANCE,
    order: 130,
    required: true,
    validationErrorMessage: 'Please confirm the declaration.',
  },

  // Personal details.
  {
    name: 'GivenNames',
    displayName: 'Given names',
    type: 'Text',
    uiGroup: PERSONAL_DETAILS,
    order: 10,
    required: true,
    maxLength: 100,
    note: 'As printed on the document, including middle names.',
    tags: ['identity', 'person'],
    apiReferences: { onfido: 'first_name', veriff: 'firstName' },
  },
  {
    name: 'FamilyName',
    displayName: 'Family name',
    type: 'Text',
    uiGroup: PERSONAL_DETAILS,
    order: 20,
    required: true,
    maxLength: 100,
    tags: ['identity', 'person'],
    apiReferences: { onfido: 'last_name', veriff: 'lastName' },
  },
  {
    name: 'DateOfBirth',
    displayName: 'Date of birth',
    type: 'Date',
    uiGroup: PERSONAL_DETAILS,
    order: 30,
    required: true,
    tags: ['identity', 'person'],
    apiReferences: { onfido: 'dob', veriff: 'dateOfBirth' },
  },
  {
    name: 'Nationality',
    displayName: 'Nationality',
    type: 'Country',
    uiGroup: PERSONAL_DETAILS,
    order: 40,
    required: true,
    tags: ['identity', 'person'],
  },

  // Identity document.
  {
    name: 'IdDocumentType',
    displayName: 'Document type',
    type: 'DocumentType',
    uiGroup: IDENTITY_DOCUMENT,
    order: 10,
    required: true,
    tags: ['identity', 'document'],
  },
  {
    name: 'DocumentNumber',
    displayName: 'Document number',
    type: 'Text',
    uiGroup: IDENTITY_DOCUMENT,
    order: 20,
    required: true,
    maxLength: 20,
    pattern: '[A-Z0-9]{5,20}',
    validationErrorMessage: 'Enter the document number in capital letters and digits, no spaces.',
    tags: ['identity', 'document'],
    apiReferences: { onfido: 'document_number', veriff: 'documentNumber' },
  },
  {
    name: 'IssuingCountry',
    displayName: 'Issuing country',
    type: 'Country',
    uiGroup: IDENTITY_DOCUMENT,
    order: 30,
    required: true,
    tags: ['identity', 'document'],
    apiReferences: { onfido: 'issuing_country', veriff: 'country' },
  },
  {
    name: 'DateOfExpiry',
    displayName: 'Date of expiry',
    type: 'Date',
    uiGroup: IDENTITY_DOCUMENT,
    order: 50,
    required: true,
    tags: ['identity', 'document'],
    apiReferences: { onfido: 'date_of_expiry', veriff: 'validUntil' },
  },
  {
    name: 'MachineReadableZone',
    displayName: 'Machine readable zone (MRZ)',
    type: 'Text',
    uiGroup: IDENTITY_DOCUMENT,
    order: 60,
    maxLength: 90,
    note: 'The two lines of 44 characters at the foot of the photo page, as read by the scanner.',
    tags: ['identity', 'document', 'mrz'],
    apiReferences: { onfido: 'mrz_line1' },
  },
  {
    name: 'LicenceCategories',
    displayName: 'Licence categories',
    type: 'Text',
    uiGroup: IDENTITY_DOCUMENT,
    order: 70,
    maxLength: 60,
    note: 'As listed on the back of the licence, for example B, BE, C1.',
    tags: ['identity', 'driving'],
  },
  {
    name: 'DocumentFront',
    displayName: 'Photo of the front',
    type: 'FileUpload',
    uiGroup: IDENTITY_DOCUMENT,
    order: 80,
    required: true,
    note: 'All four corners visible, no glare on the photo.',
    tags: ['identity', 'document'],
  },
  {
    name: 'DocumentBack',
    displayName: 'Photo of the back',
    type: 'FileUpload',
    uiGroup: IDENTITY_DOCUMENT,
    order: 90,
    note: 'For cards, which carry data on both sides.',
    tags: ['identity', 'document'],
  },
  {
    name: 'DocumentCheckedAt',
    displayName: 'Document checked at',
    type: 'DateTime',
    uiGroup: IDENTITY_DOCUMENT,
    order: 100,
    section: 'Internal review',
    note: 'When a member of staff compared the document with the person.',
    editPermissions: ['staff'],
    tags: ['identity', 'internal'],
  },
];

interface SeedForm {
  name: string;
  description: string;
  /** Storage names of its fields, in order. */
  fields: string[];
  uiGroupOrder: string[];
}

const COMPANY_FIELDS = [
  'CompanyName',
  'CompanyRegistrationNumber',
  'LegalForm',
  'LegalFormOther',
  'DateOfIncorporation',
  'CountryOfIncorporation',
  'IndustrySector',
];
const ADDRESS_FIELDS = [
  'RegisteredAddressLine1',
  'RegisteredCity',
  'RegisteredPostcode',
  'RegisteredCountry',
  'TradingAddressDiffers',
  'TradingAddress',
];
const PERSON_FIELDS = ['GivenNames', 'FamilyName', 'DateOfBirth', 'Nationality'];
const DOCUMENT_FIELDS = ['DocumentNumber', 'IssuingCountry', 'DateOfExpiry'];

/** The document types of db/seed/document-types.ts that get their form (not all of them). */
export const DOCUMENT_TYPES_WITH_FORMS = ['passport', 'driving_licence'] as const;

const FORMS: SeedForm[] = [
  {
    name: 'EditTenantProfile',
    description:
      'The profile of a tenant: the company, its address and contact, and its compliance answers.',
    fields: [
      ...COMPANY_FIELDS,
      'LeiCode',
      ...ADDRESS_FIELDS,
      'ContactName',
      'ContactEmail',
      'ContactPhone',
      'IsRegulated',
      'RegulatorName',
      'RegulatorReference',
      'SourceOfFunds',
      'CertificateOfIncorporation',
      'RiskRating',
      'ScreeningNotes',
      'DeclarationAccepted',
    ],
    uiGroupOrder: [COMPANY, REGISTERED_ADDRESS, CONTACT, COMPLIANCE],
  },
  {
    name: 'EditEntityProfile',
    description: 'The profile of an entity: its company data, address, owners and risk.',
    fields: [
      ...COMPANY_FIELDS,
      ...ADDRESS_FIELDS,
      'UltimateBeneficialOwners',
      'IsPep',
      'PepDetails',
      'SourceOfFunds',
      'RiskRating',
      'ScreeningNotes',
    ],
    uiGroupOrder: [COMPANY, REGISTERED_ADDRESS, COMPLIANCE],
  },
  {
    name: expectedFormName('passport'),
    description: 'A person identified by passport (ICAO 9303).',
    fields: [
      ...PERSON_FIELDS,
      ...DOCUMENT_FIELDS,
      'MachineReadableZone',
      'DocumentFront',
      'DocumentCheckedAt',
    ],
    uiGroupOrder: [PERSONAL_DETAILS, IDENTITY_DOCUMENT],
  },
  {
    name: expectedFormName('driving_licence'),
    description: 'A person identified by a photocard driving licence.',
    fields: [
      ...PERSON_FIELDS,
      ...DOCUMENT_FIELDS,
      'LicenceCategories',
      'DocumentFront',
      'DocumentBack',
      'DocumentCheckedAt',
    ],
    uiGroupOrder: [PERSONAL_DETAILS, IDENTITY_DOCUMENT],
  },
];

/** The demo catalogue as the API would store it (checked by the contracts' create schema). */
export function demoFormFields(): ParsedFormFieldWrite[] {
  return FIELDS.map((field) => {
    const parsed = formFieldCreateSchema.safeParse(field);
    if (!parsed.success) {
      throw new Error(`Demo form field ${field.name} is invalid: ${parsed.error.message}`);
    }
    return parsed.data;
  });
}

/** The demo forms, each field named by its storage name (checked against the catalogue). */
export function demoForms(): SeedForm[] {
  const names = new Set(FIELDS.map((field) => field.name));
  for (const form of FORMS) {
    formDefinitionCreateSchema.parse({ name: form.name, uiGroupOrder: form.uiGroupOrder });
    const unknown = form.fields.filter((name) => !names.has(name));
    if (unknown.length > 0) throw new Error(`Demo form ${form.name} names ${unknown.join(', ')}`);
  }
  for (const id of DOCUMENT_TYPES_WITH_FORMS) documentTypeIdSchema.parse(id);
  return FORMS;
}

export interface SeededForms {
  formFields: number;
  forms: number;
}

/**
 * Whether the database has the field catalogue (migration 15). A server started one migration
 * behind (MIGRATE_ON_START_HOLD_BACK) seeds everything else and leaves the forms for later.
 */
async function hasFormCatalogue(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ applied: boolean }>`
    select exists (
      select 1 from schema_migrations where version = ${FormFieldsAndProfiles.version}
    ) as applied
  `.execute(db);
  return rows[0]?.applied ?? false;
}

/**
 * Inserts the demo fields and forms that are missing (a field is known by its storage name, a
 * form by its name, in any letter case); existing ones, maybe edited, stay as they are. A form's
 * field ids are those of its fields' storage names now.
 */
export async function seedForms(db: Kysely<Database>, now = new Date()): Promise<SeededForms> {
  if (!(await hasFormCatalogue(db))) return { formFields: 0, forms: 0 };
  const fields = demoFormFields();
  const formFields = await insertMissing(
    db,
    'form_fields',
    fields.map((field) => ({
      ...formFieldColumns(field),
      ...seedStamps(now),
    })),
  );

  const rows = await db
    .selectFrom('form_fields')
    .select(['id', sql<string>`lower(name)`.as('key')])
    .where(
      sql`lower(name)`,
      'in',
      fields.map((field) => field.name.toLowerCase()),
    )
    .execute();
  const idOf = new Map(rows.map((row) => [row.key, row.id]));
  const forms = await insertMissing(
    db,
    'forms',
    demoForms().map((form) => ({
      name: form.name,
      description: form.description,
      field_ids: form.fields.flatMap((name) => idOf.get(name.toLowerCase()) ?? []),
      ui_group_order: form.uiGroupOrder,
      col_span_override: 0,
      ...seedStamps(now),
    })),
  );
  return { formFields, forms };
}
