import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { seedCountries } from './countries.ts';
import { buildDemoData, type DemoTenantKey } from './demo-data.ts';
import { demoDocumentTypes, seedDocumentTypes } from './document-types.ts';
import { insertMissing } from './common.ts';
import { seedForms } from './forms.ts';
import { ensureDemoTenants } from './tenants.ts';

/** Rows the seed inserted, per table: zero everywhere when everything was already there. */
export interface SeedSummary {
  countries: number;
  documentTypes: number;
  /** 0 on a database before migration 15, which has no field catalogue yet. */
  formFields: number;
  forms: number;
  tenants: number;
  tenantNamespaces: number;
  tenantUsers: number;
  entities: number;
  entityUsers: number;
  events: number;
  processedEvents: number;
}

export interface SeedOptions {
  /** The moment the demo's timestamps are relative to (events of "the last 30 days"). */
  now?: Date;
}

// Two processes seeding at once (several instances with SEED_DEMO_DATA=true) queue on this.
const SEED_LOCK_KEY = 724_211_032;

/**
 * Demo data for embedded mode, also behind "Apply Seed Data": every ISO country, the identity
 * document types, a form field catalogue with the profile forms and some identity forms (from
 * migration 15 on), the tenants Acme Corporation and Globex Limited with their portal users, their
 * entities and entity users, and an event log with per-worker processing.
 *
 * Idempotent: it only inserts what is missing (insert ... on conflict do nothing; tenants, whose
 * ids are generated, are found by namespace or company name) and never updates a row, so rows a
 * user edited stay edited. A demo row the user deleted comes back. All in one transaction.
 */
export async function seedDemoData(
  db: Kysely<Database>,
  options: SeedOptions = {},
): Promise<SeedSummary> {
  const now = options.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    const countries = await seedCountries(trx, now);
    const documentTypes = await seedDocumentTypes(trx, now);
    const { formFields, forms } = await seedForms(trx, now);
    const tenants = await ensureDemoTenants(trx, now);
    const data = buildDemoData(
      now,
      demoDocumentTypes().map((type) => type.id),
    );
    const tenantId = (key: DemoTenantKey) => tenants.ids[key];

    const entities = await insertMissing(
      trx,
      'entities',
      data.entities.map((entity) => ({
        party_entity_id: entity.partyEntityId,
        tenant_id: tenantId(entity.tenant),
        names: JSON.stringify(entity.names),
        country: entity.country,
        created_at: entity.createdAt,
      })),
    );

    // An entity's users belong to the entity's tenant, whatever tenant it has now.
    const entityTenants = new Map(
      (
        await trx
          .selectFrom('entities')
          .select(['party_entity_id', 'tenant_id'])
          .where(
            'party_entity_id',
            'in',
            data.entities.map((entity) => entity.partyEntityId),
          )
          .execute()
      ).map((row) => [row.party_entity_id, row.tenant_id]),
    );
    const entityUsers = await insertMissing(
      trx,
      'entity_users',
      data.entityUsers.map((user) => ({
        party_user_id: user.partyUserId,
        party_entity_id: user.partyEntityId,
        tenant_id: entityTenants.get(user.partyEntityId) ?? tenantId(user.tenant),
        type: user.type,
        state: user.state,
        email: user.email,
        metadata: JSON.stringify(user.metadata),
        keys: JSON.stringify(user.keys),
        created_at: user.createdAt,
      })),
    );

    const insertedEvents = await trx
      .insertInto('events')
      .values(
        data.events.map((event) => ({
          event_name: event.eventName,
          tenant_id: event.tenant ? tenantId(event.tenant) : null,
          entity_id: event.entityId,
          unique_id: event.uniqueId,
          created_at: event.createdAt,
          metadata: JSON.stringify(event.metadata),
          is_processed: event.isProcessed,
          has_error: event.hasError,
        })),
      )
      .onConflict((conflict) => conflict.doNothing())
      .returning(['id', 'unique_id'])
      .execute();
    // Processing rows only for events inserted now: an existing event keeps its own (it may have
    // been reset or reprocessed since).
    const eventIds = new Map(insertedEvents.map((row) => [row.unique_id, row.id]));
    const processingRows = data.events.flatMap((event) => {
      const eventId = eventIds.get(event.uniqueId);
      if (eventId === undefined) return [];
      return event.processing.map((row) => ({
        event_id: eventId,
        worker_name: row.worker,
        has_error: row.hasError,
        error_message: row.errorMessage,
        processed_at: row.processedAt,
        attempts: row.attempts,
      }));
    });
    const processedEvents = await insertMissing(trx, 'processed_events', processingRows);

    return {
      countries,
      documentTypes,
      formFields,
      forms,
      tenants: tenants.inserted,
      tenantNamespaces: tenants.insertedNamespaces,
      tenantUsers: tenants.insertedUsers,
      entities,
      entityUsers,
      events: insertedEvents.length,
      processedEvents,
    };
  });
}
