import type { ColumnType, Generated, GeneratedAlways, JSONColumnType } from 'kysely';

/** Row types of every table, as Kysely sees them. Migrations in ./migrations create them. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

/** Who wrote a row last and when: every write path fills these (spec: writes are attributed). */
interface WriteStamp {
  created_at: CreatedAt;
  created_by: string;
  updated_at: Timestamp;
  updated_by: string;
}

export interface SchemaMigrationsTable {
  version: number;
  description: string;
  class_name: string;
  applied_on: CreatedAt;
}

export interface SigningKeysTable {
  kid: string;
  private_jwk: JSONColumnType<Record<string, unknown>>;
  public_jwk: JSONColumnType<Record<string, unknown>>;
  created_at: CreatedAt;
  /** When a newer key took over signing (auth/signing-keys.ts); null for the signing key. */
  retired_at: NullableTimestamp;
}

/** Fixed-window counters of the rate limits, shared by every instance (auth/rate-limit-store.ts). */
export interface RateLimitCountersTable {
  scope: string;
  client_key: string;
  hits: number;
  resets_at: Timestamp;
}

export interface SessionsTable {
  /** sha-256 of the cookie value: a copy of the table does not give away live sessions. */
  id_hash: string;
  user_subject: string;
  user_email: string;
  user_name: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  /**
   * The ID token of the sign-in, sent as `id_token_hint` at sign-out (migration 24: a database
   * before it has no such column, auth/sessions.ts).
   */
  id_token_hint: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SignInAttemptsTable {
  state: string;
  nonce: string;
  code_verifier: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface CountriesTable extends WriteStamp {
  /** ISO 3166-1 numeric code. */
  id: number;
  alpha2: string;
  alpha3: string;
  name: string;
  sequence: number | null;
  valid_from: NullableTimestamp;
  valid_to: NullableTimestamp;
  cached_risk: string | null;
  cached_risk_at: NullableTimestamp;
}

export interface ValidityPeriod {
  years?: number | null;
  months?: number | null;
  days?: number | null;
}

export interface DocumentTypesTable extends WriteStamp {
  id: string;
  display_name: string;
  tags: ColumnType<string[], string[], string[]>;
  api_references: JSONColumnType<Record<string, string>>;
  sequence: number | null;
  valid_from: NullableTimestamp;
  valid_to: NullableTimestamp;
  validity_period: JSONColumnType<ValidityPeriod | null, string | null, string | null>;
}

/** A tenant's or entity's profile: storage name to value (docs/forms.md). */
export type ProfileValues = Record<string, string>;

/** The profile columns of tenants and entities (migration 15). */
interface ProfileColumns {
  profile: ColumnType<ProfileValues, string | undefined, string>;
  profile_updated_at: NullableTimestamp;
  profile_updated_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface TenantsTable extends WriteStamp, ProfileColumns {
  id: Generated<number>;
  company_name: string;
  domicile_country_id: number;
  /** `{"tenantName":"…"`: how its entities' rows in GET api/Entity start (migration 16). */
  entity_row_head: GeneratedAlways<string>;
}

export interface TenantNamespacesTable {
  namespace: string;
  tenant_id: number;
}

export interface TenantUsersTable extends WriteStamp {
  id: Generated<number>;
  /** Stored lower-cased: sign-in matches emails case-insensitively. */
  email: string;
  tenant_id: number;
}

export interface EntityNames {
  names: { entityName?: string } & Record<string, string | undefined>;
}

export interface EntitiesTable extends ProfileColumns {
  party_entity_id: string;
  tenant_id: number;
  names: JSONColumnType<EntityNames>;
  country: string | null;
  created_at: CreatedAt;
  /** The entity's JSON in GET api/Entity after its first member, tenantName (migration 16). */
  list_row_rest: GeneratedAlways<string>;
  /** `{"entityName":"…"`: how its users' rows in GET api/EntityUser start (migration 16). */
  user_row_head: GeneratedAlways<string>;
}

export interface EntityUserMetadata {
  preferredName?: string;
  givenName?: string;
  familyName?: string;
}

export interface EntityUsersTable {
  party_user_id: string;
  party_entity_id: string;
  /** Denormalised from the entity so tenant-scoped paging needs no join. */
  tenant_id: number;
  type: number;
  state: string;
  email: string | null;
  metadata: JSONColumnType<EntityUserMetadata>;
  keys: JSONColumnType<Record<string, string>>;
  created_at: CreatedAt;
  /** Set by the console's writes (key deletion); null while the platform's row is untouched. */
  updated_at: NullableTimestamp;
  updated_by: string | null;
  /** The user's JSON in GET api/EntityUser after its first member, entityName (migration 16). */
  list_row_rest: GeneratedAlways<string>;
}

export interface EventsTable {
  id: Generated<number>;
  event_name: string;
  tenant_id: number | null;
  entity_id: string | null;
  unique_id: string;
  created_at: CreatedAt;
  metadata: JSONColumnType<Record<string, unknown>>;
  is_processed: Generated<boolean>;
  has_error: Generated<boolean>;
}

export interface ProcessedEventsTable {
  event_id: number;
  worker_name: string;
  has_error: boolean;
  error_message: string | null;
  processed_at: NullableTimestamp;
  attempts: number;
  /** The worker instance that holds (or last held) the claim; see outbox/dispatcher.ts. */
  locked_by: string | null;
  /** The claim's lease: past it, another instance may take the work over. */
  locked_until: NullableTimestamp;
  /** Claimed but its work not begun: a crash does not charge it an attempt. */
  unstarted: Generated<boolean>;
}

/** Mails per hour, kind and outcome (migration 21): the overview's last 24 hours. */
export interface MailCountsTable {
  hour: ColumnType<Date, Date | string, never>;
  kind: string;
  outcome: 'sent' | 'failed';
  mails: number;
}

/** Append-only (a trigger rejects update, delete and truncate): written by the audit-trail worker. */
export interface AuditLogTable {
  id: Generated<number>;
  event_id: number;
  event_name: string;
  tenant_id: number | null;
  entity_id: string | null;
  actor: string | null;
  action: string | null;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  metadata: JSONColumnType<Record<string, unknown>, string, never>;
  occurred_at: ColumnType<Date, Date | string, never>;
  recorded_at: ColumnType<Date, Date | string | undefined, never>;
  /** What the row is about (migration 22): from the event's metadata.target. */
  target_type: ColumnType<string | null, string | null | undefined, never>;
  target_id: ColumnType<string | null, string | null | undefined, never>;
  target_name: ColumnType<string | null, string | null | undefined, never>;
}

/** Every target name the audit log holds, once (migration 28): what the free text searches. */
export interface AuditTargetNamesTable {
  name: string;
}

export interface FormsTable extends WriteStamp {
  id: Generated<number>;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  /** The form's fields in order; an id whose field was deleted stays until the form is saved without it. */
  field_ids: ColumnType<number[], number[] | undefined, number[]>;
  ui_group_order: ColumnType<string[], string[] | undefined, string[]>;
  /** 0 to 12; 0 means no override. */
  col_span_override: ColumnType<number, number | undefined, number>;
}

/** One field of the catalogue (migration 15); `name` is the storage name. */
export interface FormFieldsTable extends WriteStamp {
  id: Generated<number>;
  name: string;
  display_name: string;
  type: string;
  section: string | null;
  field_order: number | null;
  note: string | null;
  required: ColumnType<boolean, boolean | undefined, boolean>;
  validation_error_message: string | null;
  max_length: number | null;
  pattern: string | null;
  print_label: string | null;
  require_fields: ColumnType<string[], string[] | undefined, string[]>;
  options: ColumnType<string[], string[] | undefined, string[]>;
  alias_for: string | null;
  print: ColumnType<boolean, boolean | undefined, boolean>;
  print_sequence: number | null;
  view_permissions: ColumnType<string[], string[] | undefined, string[]>;
  edit_permissions: ColumnType<string[], string[] | undefined, string[]>;
  ui_group: string;
  /** Both JSON columns default to empty ('{}', '[]'), so an insert may leave them out. */
  api_references: JSONColumnType<Record<string, string>, string | undefined, string>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  conditional_requirements: JSONColumnType<
    { fieldName: string; triggerValues: string[]; validationMessage?: string | null }[],
    string | undefined,
    string
  >;
}

/** The file of a FileUpload field of one tenant's or entity's profile (migration 15). */
export interface ProfileFilesTable {
  id: Generated<number>;
  tenant_id: number | null;
  party_entity_id: string | null;
  field_name: string;
  file_name: string;
  content_type: string;
  size: number;
  content: Buffer;
  uploaded_at: CreatedAt;
  uploaded_by: string;
}

/** One version per cached reference list, bumped by a trigger on every write (migration 8). */
export interface ReferenceVersionsTable {
  name: string;
  version: number;
}

/** Rows of an entity list per tenant, kept by triggers in the writing transaction (migration 8). */
export interface ListCountsTable {
  list: 'entities' | 'entity_users';
  tenant_id: number;
  row_count: number;
  /** Grows with every change of the tenant's keys in this list (migration 10). */
  generation: number;
}

/** Per log, what its page anchors hold to (migration 29, db/log-anchors.ts). */
export interface LogAnchorStatesTable {
  list: 'events' | 'audit_log';
  /** Raised by each anchor build, never lowered; null before the first. */
  boundary: ColumnType<Date | null, never, Date>;
  /** Grows with every change of the rows older than the boundary. */
  generation: ColumnType<number, never, never>;
}

export interface ScriptExecutionsTable {
  id: Generated<number>;
  script_id: number;
  script_name: string;
  script_version: number;
  status: 'Running' | 'Success' | 'Failed';
  executed_by: string;
  executed_at: CreatedAt;
  finished_at: NullableTimestamp;
  message: string | null;
}

export interface ScriptExecutionTotalTable {
  only_row: Generated<boolean>;
  total: number;
}

/** An import job of FATF ratings (migration 14). */
export interface FatfImportsTable {
  id: Generated<number>;
  status: ColumnType<
    'pending' | 'processing' | 'completed' | 'failed' | 'cancelled',
    'pending' | undefined,
    'pending' | 'processing' | 'completed' | 'failed' | 'cancelled'
  >;
  progress: Generated<number>;
  message: Generated<string>;
  options: JSONColumnType<{
    overwriteExisting: boolean;
    validateChronology: boolean;
    skipInvalidRecords: boolean;
  }>;
  record_count: number;
  records_processed: Generated<number>;
  records_imported: Generated<number>;
  records_skipped: Generated<number>;
  errors: ColumnType<{ message: string }[], string | undefined, string>;
  attempts: Generated<number>;
  created_by: string;
  created_at: CreatedAt;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

/** One report's ratings of one jurisdiction (migration 14). */
export interface FatfRatingsTable {
  id: Generated<number>;
  jurisdiction: string;
  country_id: number | null;
  report_type: string;
  /** YYYY-MM-DD (the pool reads dates as text). */
  report_date: string;
  assessment_body: string;
  effectiveness: JSONColumnType<Record<string, string>>;
  compliance: JSONColumnType<Record<string, string>>;
  upgrades: number | null;
  downgrades: number | null;
  valid_from: string | null;
  valid_to: string | null;
  country_code: string | null;
  report_url: string | null;
  import_id: number;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/**
 * A validated record of an import job that has not ended (migrations 20 and 24), in its stored
 * form, kept from the moment the job was stored.
 */
export interface FatfImportRowsTable extends Pick<
  FatfRatingsTable,
  | 'jurisdiction'
  | 'report_type'
  | 'report_date'
  | 'assessment_body'
  | 'effectiveness'
  | 'compliance'
  | 'upgrades'
  | 'downgrades'
  | 'valid_from'
  | 'valid_to'
  | 'country_code'
  | 'report_url'
> {
  import_id: number;
  /** The record's index in the import's records. */
  position: number;
  /** The country code the jurisdiction's name gives, to find its country when published. */
  alpha2: string | null;
}

export interface EmailTemplatesTable extends WriteStamp {
  id: Generated<number>;
  template_key: string;
  tenant_id: number | null;
  party_entity_id: string | null;
  product_type: number;
  product_scope: number;
  active_version_id: number | null;
}

export interface EmailTemplateVersionsTable extends WriteStamp {
  id: Generated<number>;
  email_template_id: number;
  version_number: number;
  from_address: string;
  subject: string;
  body: string;
  text_content: string;
  json_schema: string | null;
}

export interface Database {
  schema_migrations: SchemaMigrationsTable;
  signing_keys: SigningKeysTable;
  rate_limit_counters: RateLimitCountersTable;
  sessions: SessionsTable;
  sign_in_attempts: SignInAttemptsTable;
  countries: CountriesTable;
  document_types: DocumentTypesTable;
  tenants: TenantsTable;
  tenant_namespaces: TenantNamespacesTable;
  tenant_users: TenantUsersTable;
  entities: EntitiesTable;
  entity_users: EntityUsersTable;
  events: EventsTable;
  processed_events: ProcessedEventsTable;
  audit_log: AuditLogTable;
  audit_target_names: AuditTargetNamesTable;
  mail_counts: MailCountsTable;
  forms: FormsTable;
  form_fields: FormFieldsTable;
  profile_files: ProfileFilesTable;
  reference_versions: ReferenceVersionsTable;
  list_counts: ListCountsTable;
  log_anchor_states: LogAnchorStatesTable;
  script_executions: ScriptExecutionsTable;
  script_execution_total: ScriptExecutionTotalTable;
  fatf_imports: FatfImportsTable;
  fatf_ratings: FatfRatingsTable;
  fatf_import_rows: FatfImportRowsTable;
  email_templates: EmailTemplatesTable;
  email_template_versions: EmailTemplateVersionsTable;
}
