import type { Migration } from './migration.ts';
import { SignInAndSessions } from './0001-sign-in-and-sessions.ts';
import { ReferenceData } from './0002-reference-data.ts';
import { TenantsAndEntities } from './0003-tenants-and-entities.ts';
import { Events } from './0004-events.ts';
import { Forms } from './0005-forms.ts';
import { EntityListsAndKeyStamps } from './0006-entity-lists-and-key-stamps.ts';
import { EventProcessing } from './0007-event-processing.ts';
import { ReferenceVersionsAndListCounts } from './0008-reference-versions-and-list-counts.ts';
import { SharedInstanceState } from './0009-shared-instance-state.ts';
import { ListGenerations } from './0010-list-generations.ts';
import { EventWorkSignal } from './0011-event-work-signal.ts';
import { ScriptExecutions } from './0012-script-executions.ts';
import { EmailTemplates } from './0013-email-templates.ts';
import { FatfRatings } from './0014-fatf-ratings.ts';
import { FormFieldsAndProfiles } from './0015-form-fields-and-profiles.ts';
import { EntityListRows } from './0016-entity-list-rows.ts';
import { EntityListRowsAscii } from './0017-entity-list-rows-ascii.ts';
import { EventRecordCompletion } from './0018-event-record-completion.ts';
import { CountryCodesUniquePerStatement } from './0019-country-codes-unique-per-statement.ts';
import { FatfImportCheckpoints } from './0020-fatf-import-checkpoints.ts';
import { OverviewFigures } from './0021-overview-figures.ts';
import { AuditLogTargets } from './0022-audit-log-targets.ts';
import { Retention } from './0023-retention.ts';
import { SessionLogoutHints } from './0024-session-logout-hints.ts';
import { AuditPrunePrivileges } from './0025-audit-prune-privileges.ts';
import { FatfImportStagedRecords } from './0026-fatf-import-staged-records.ts';
import { EventNameStatusIndexes } from './0027-event-name-status-indexes.ts';
import { AuditLogFilterIndexes } from './0028-audit-log-filter-indexes.ts';
import { LogPageAnchors } from './0029-log-page-anchors.ts';

/** Every migration, in version order. A new one is a new module added at the end. */
export const migrations: readonly Migration[] = [
  SignInAndSessions,
  ReferenceData,
  TenantsAndEntities,
  Events,
  Forms,
  EntityListsAndKeyStamps,
  EventProcessing,
  ReferenceVersionsAndListCounts,
  SharedInstanceState,
  ListGenerations,
  EventWorkSignal,
  ScriptExecutions,
  EmailTemplates,
  FatfRatings,
  FormFieldsAndProfiles,
  EntityListRows,
  EntityListRowsAscii,
  EventRecordCompletion,
  CountryCodesUniquePerStatement,
  FatfImportCheckpoints,
  OverviewFigures,
  AuditLogTargets,
  Retention,
  SessionLogoutHints,
  AuditPrunePrivileges,
  FatfImportStagedRecords,
  EventNameStatusIndexes,
  AuditLogFilterIndexes,
  LogPageAnchors,
];
