import {
  FORM_FIELD_TYPES,
  validateSubmission,
  type FormDefinition,
  type FormField,
  type FormFieldType,
} from '../packages/contracts/src/index.ts';
import { renderForm, renderFormGroup } from '../apps/server/src/features/form-usage/rendering.ts';
import { alternating, formatMs, ratio } from './lib.ts';

/**
 * Forms (issue 12): the server's work per call on a 200-field form, against the cost of
 * serialising the same definitions to JSON (JSON.stringify) in the same run:
 * - the HTML of the whole form (GET /svc/formauthoring/{name});
 * - the HTML of one of its 10 groups (GET .../fieldgroup/{group}, the profile dialogs' call);
 * - the validation of a 200-value submission (validateSubmission: required, lengths, patterns,
 *   formats, options, conditional requirements, requireFields), the database lookups aside.
 * Each prints its time per operation and the ratio ours / JSON.stringify (no target was set).
 * BENCH_FORM_OPERATIONS sets how many operations each measures (default 2,000).
 */
export async function benchForms(): Promise<void> {
  const operations = Number(process.env.BENCH_FORM_OPERATIONS ?? 2000);
  const fields = benchFields(200);
  const definition: FormDefinition = {
    id: 1,
    name: 'EditTenantProfile',
    description: 'The tenant profile of a bank onboarding',
    fields: fields.map((field) => field.id),
    uiGroupOrder: GROUPS,
    colSpanOverride: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    field_definitions: fields,
  };
  const options = { roles: ['staff'], hasEditPermission: true, showValidationSummary: false };
  const group = GROUPS[3]!;
  const groupFields = fields.filter((field) => field.uiGroup === group);
  const values = validValues(fields);
  const context = {
    roles: ['staff'],
    countryIds: new Set(['826', '840', '276']),
    documentTypeIds: new Set(['passport', 'national_id']),
  };
  const errors = validateSubmission(fields, values, context);
  if (Object.keys(errors).length > 0) {
    throw new Error(`The bench payload is not valid: ${JSON.stringify(errors).slice(0, 300)}`);
  }

  console.log(
    `\nForms: ${fields.length} fields in ${GROUPS.length} groups, ${operations} operations each`,
  );
  report(
    `HTML of the whole form (${renderForm(definition, options).length} characters)`,
    alternating(
      operations,
      () => renderForm(definition, options),
      () => JSON.stringify(definition),
    ),
  );
  report(
    `HTML of one group (${groupFields.length} fields)`,
    alternating(
      operations,
      () => renderFormGroup(definition, group, options, true),
      () => JSON.stringify(groupFields),
    ),
  );
  report(
    `Validation of a ${Object.keys(values).length}-value submission`,
    alternating(
      operations,
      () => validateSubmission(fields, values, context),
      () => JSON.stringify(fields),
    ),
  );
}

function report(title: string, [oursMs, baselineMs]: [number, number]): void {
  console.log(`  ${title}`);
  console.log(`    ours                               : ${formatMs(oursMs)} per operation`);
  console.log(`    JSON.stringify of the definitions  : ${formatMs(baselineMs)} per operation`);
  console.log(`    ratio (ours / JSON.stringify)      : ${ratio(oursMs, baselineMs)}×`);
}

const GROUPS = [
  'Company',
  'Registered address',
  'Trading address',
  'Ownership',
  'Directors',
  'Licences',
  'Risk',
  'Sanctions',
  'Documents',
  'Declarations',
];

/**
 * A realistic form: every type, labels and notes of real length, patterns on identifiers,
 * options on selects, a conditional requirement of each kind and requireFields here and there.
 */
function benchFields(count: number): FormField[] {
  const fields: FormField[] = [];
  for (let index = 0; index < count; index++) {
    const type: FormFieldType = FORM_FIELD_TYPES[index % FORM_FIELD_TYPES.length]!;
    const name = `Field${index}_${type}`;
    const previous = fields[index - 1];
    fields.push({
      id: index + 1,
      name,
      displayName: `${type} question ${index} of the onboarding & review`,
      type,
      section: null,
      order: index,
      note: index % 3 === 0 ? 'As shown on the certificate of incorporation, in full.' : null,
      required: index % 4 === 0,
      validationErrorMessage: null,
      maxLength: type === 'Text' ? (index % 2 === 0 ? 120 : 2000) : null,
      pattern: type === 'Text' && index % 2 === 0 ? '[A-Za-z0-9 .,&-]+' : null,
      printLabel: null,
      requireFields: index % 10 === 5 && previous ? [previous.name] : [],
      options: type === 'Select' ? ['Low', 'Medium', 'High', 'Prohibited'] : [],
      aliasFor: null,
      print: false,
      printSequence: null,
      viewPermissions: [],
      editPermissions: [],
      uiGroup: GROUPS[Math.floor((index * GROUPS.length) / count)]!,
      apiReferences: { onfido: `field_${index}` },
      tags: ['kyc', type.toLowerCase()],
      conditionalRequirements:
        index % 10 === 7 && previous
          ? [
              {
                fieldName: previous.name,
                triggerValues: index % 20 === 7 ? ['Yes'] : ['!No'],
                validationMessage: null,
              },
            ]
          : [],
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-01-01T00:00:00.000Z',
    });
  }
  return fields;
}

/** A value every field accepts. */
function validValues(fields: readonly FormField[]): Record<string, string> {
  const byType: Record<FormFieldType, string> = {
    Checkbox: 'true',
    Country: '826',
    Date: '2024-02-29',
    DateTime: '2024-02-29T13:45',
    DocumentType: 'passport',
    DropdownYesNo: 'Yes',
    Email: 'compliance@bank.example.com',
    FileUpload: 'certificate.pdf',
    PartyList: 'Ada Lovelace\nCharles Babbage',
    PhoneNumber: '+44 20 7946 0958',
    Select: 'Medium',
    Text: 'Acme Holdings Ltd',
  };
  return Object.fromEntries(fields.map((field) => [field.name, byType[field.type]]));
}
