import type { EntityNames, EntityUserMetadata } from '../schema.ts';
import { list } from './common.ts';
import { BASE62, BASE64, HEX, createRandom, type Random } from './random.ts';

/**
 * The demo data set, built without a database: two tenants with their portal users, ~30 entities
 * each with 1-3 users, and ~150 events of the last 30 days with their per-worker processing. Built
 * from a fixed seed, so every run gives the same ids, names and keys; only the timestamps follow
 * `now`. demo.ts writes it.
 */

export type DemoTenantKey = 'acme' | 'globex';

export interface DemoTenant {
  key: DemoTenantKey;
  companyName: string;
  domicileCountryId: number;
  namespaces: string[];
  users: string[];
}

export const DEMO_TENANTS: readonly DemoTenant[] = [
  {
    key: 'acme',
    companyName: 'Acme Corporation',
    domicileCountryId: 840,
    namespaces: ['acme'],
    users: ['portal@acme.example'],
  },
  {
    key: 'globex',
    companyName: 'Globex Limited',
    domicileCountryId: 826,
    namespaces: ['globex'],
    users: ['portal@globex.example'],
  },
];

export const EVENT_WORKERS = ['audit-trail', 'notifications'] as const;
export type EventWorker = (typeof EVENT_WORKERS)[number];

export interface DemoEntity {
  partyEntityId: string;
  /** Came with the tenant's bulk import, rather than onboarded one by one since. */
  imported: boolean;
  /** Where its users' e-mail addresses are (under the reserved .example top-level domain). */
  emailDomain: string;
  tenant: DemoTenantKey;
  names: EntityNames;
  /** ISO 3166-1 alpha-2 code of the entity's country; null when not recorded. */
  country: string | null;
  createdAt: Date;
}

export interface DemoEntityUser {
  partyUserId: string;
  partyEntityId: string;
  tenant: DemoTenantKey;
  /** 0 primary, 1 standard, other numbers are shown as they are. */
  type: number;
  state: 'active' | 'invited' | 'suspended';
  email: string | null;
  metadata: EntityUserMetadata;
  keys: Record<string, string>;
  createdAt: Date;
}

export interface DemoProcessing {
  worker: EventWorker;
  hasError: boolean;
  errorMessage: string | null;
  processedAt: Date | null;
  attempts: number;
}

export interface DemoEvent {
  eventName: string;
  tenant: DemoTenantKey | null;
  entityId: string | null;
  uniqueId: string;
  createdAt: Date;
  metadata: Record<string, unknown>;
  /** One entry per worker that has picked the event up; a worker not listed has not yet. */
  processing: DemoProcessing[];
  isProcessed: boolean;
  hasError: boolean;
}

export interface DemoData {
  tenants: readonly DemoTenant[];
  entities: DemoEntity[];
  entityUsers: DemoEntityUser[];
  events: DemoEvent[];
}

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

interface Region {
  givenNames: readonly string[];
  familyNames: readonly string[];
  stems: readonly string[];
  industries: readonly string[];
}

const ENGLISH: Region = {
  givenNames: list(`
    James, Olivia, Michael, Emma, Daniel, Sophie, David, Charlotte, Thomas, Grace, Robert, Hannah,
    William, Amelia, Christopher, Chloe, Matthew, Lucy, Andrew, Megan, Priya, Samuel, Aisha,
    Benjamin
  `),
  familyNames: list(`
    Smith, Johnson, Williams, Brown, Taylor, Davies, Wilson, Evans, Thompson, Walker, Wright,
    Robinson, Hughes, Carter, Mitchell, Bennett, Reid, Murphy, Kelly, O'Brien, Patel, Nguyen,
    Okafor, Chen
  `),
  stems: list(`
    Northwind, Bluewater, Silverline, Crescent, Evergreen, Ironbridge, Summit, Oakridge,
    Brightstone, Harbourview, Redwood, Clearwater, Falcon, Meridian, Granite, Lighthouse, Sterling,
    Pinnacle, Westbrook, Kestrel, Blackthorn, Copperfield, Highgate, Juniper
  `),
  industries: list(`
    Logistics, Capital, Trading, Analytics, Pharmaceuticals, Foods, Energy, Payments, Marine,
    Software, Insurance Brokers, Biotech, Construction, Retail, Ventures, Consulting, Health,
    Freight
  `),
};

const REGIONS: Record<string, Region> = {
  en: ENGLISH,
  de: {
    givenNames: list(`
      Lukas, Anna, Jonas, Lea, Maximilian, Sophie, Felix, Marie, Paul, Laura, Tobias, Julia, Stefan,
      Katharina, Florian, Jürgen
    `),
    familyNames: list(`
      Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch,
      Richter, Wolf, Schröder, Neumann, Brandt
    `),
    stems: list('Alpenblick, Rheinland, Nordstern, Elbtal, Bergmann, Sonnenfeld'),
    industries: list('Logistik, Maschinenbau, Handel, Immobilien, Software, Energie'),
  },
  fr: {
    givenNames: list(`
      Lucas, Camille, Hugo, Manon, Louis, Chloé, Jules, Léa, Antoine, Inès, Mathieu, Juliette
    `),
    familyNames: list(`
      Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Laurent,
      Lefèvre, Girard
    `),
    stems: list('Belleville, Montclair, Rivoli, Beauséjour, Lumière, Val d’Or'),
    industries: list('Transports, Conseil, Finance, Distribution, Cosmétiques, Vins'),
  },
  es: {
    givenNames: list(`
      Alejandro, Lucía, Pablo, Sofía, Javier, María, Diego, Carmen, Carlos, Elena, Sergio, Paula
    `),
    familyNames: list(`
      García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Ruiz, Díaz,
      Moreno
    `),
    stems: list('Solana, Miramar, Alhambra, Vallehermoso, Puerto Azul, Sierra Verde'),
    industries: list('Construcciones, Alimentos, Inversiones, Energía, Logística, Seguros'),
  },
  it: {
    givenNames: list(`
      Marco, Giulia, Alessandro, Francesca, Lorenzo, Chiara, Matteo, Sara, Davide, Martina
    `),
    familyNames: list(`
      Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco
    `),
    stems: list('Bellavista, Serenissima, Monteverde, Arno, Aurora, Dolomiti'),
    industries: list('Alimentari, Costruzioni, Moda, Meccanica, Finanziaria, Trasporti'),
  },
  nl: {
    givenNames: list('Daan, Emma, Sem, Julia, Lars, Sanne, Thijs, Fleur, Bram, Lotte'),
    familyNames: list(`
      de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Visser, Smit, Meijer, de Boer
    `),
    stems: list('Zuiderzee, Oranje, Waterland, Delta, Windmolen, Amstel'),
    industries: list('Transport, Handel, Agri, Havendiensten, Technologie, Bouw'),
  },
  nordic: {
    givenNames: list('Erik, Astrid, Lars, Ingrid, Johan, Freja, Mikael, Elin, Anders, Sofia'),
    familyNames: list(`
      Andersson, Johansson, Nielsen, Hansen, Larsen, Karlsson, Lindqvist, Virtanen, Berg, Eriksson
    `),
    stems: list('Nordlys, Fjordline, Polaris, Skogen, Havbris, Vinterhav'),
    industries: list('Shipping, Energi, Skog, Fintech, Fiskeri, Design'),
  },
  pl: {
    givenNames: list('Jakub, Zuzanna, Kacper, Julia, Piotr, Anna, Tomasz, Katarzyna'),
    familyNames: list(`
      Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński
    `),
    stems: ['Wisła', 'Bałtyk', 'Tatry', 'Mazowsze'],
    industries: ['Logistyka', 'Budownictwo', 'Handel', 'Energetyka'],
  },
  pt: {
    givenNames: list('João, Ana, Pedro, Beatriz, Rafael, Mariana, Gabriel, Larissa'),
    familyNames: list('Silva, Santos, Oliveira, Souza, Costa, Pereira, Almeida, Ferreira'),
    stems: ['Ipanema', 'Tejo', 'Atlântico', 'Serra Azul', 'Horizonte'],
    industries: ['Alimentos', 'Logística', 'Participações', 'Energia', 'Tecnologia'],
  },
  ja: {
    givenNames: list('Haruto, Yui, Sota, Hina, Ren, Aoi, Takumi, Sakura'),
    familyNames: list('Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura'),
    stems: ['Sakura', 'Fujimi', 'Asahi', 'Kaigan', 'Midori'],
    industries: ['Shoji', 'Kogyo', 'Trading', 'Electronics', 'Logistics'],
  },
};

interface CountryProfile {
  region: keyof typeof REGIONS;
  /** Legal forms companies of that country use. */
  legalForms: readonly string[];
}

const COUNTRIES: Record<string, CountryProfile> = {
  US: { region: 'en', legalForms: ['Inc.', 'LLC', 'Corp.'] },
  CA: { region: 'en', legalForms: ['Inc.', 'Ltd.'] },
  MX: { region: 'es', legalForms: ['S.A. de C.V.'] },
  BR: { region: 'pt', legalForms: ['Ltda.', 'S.A.'] },
  GB: { region: 'en', legalForms: ['Ltd', 'PLC', 'LLP'] },
  IE: { region: 'en', legalForms: ['Ltd', 'DAC'] },
  DE: { region: 'de', legalForms: ['GmbH', 'AG', 'GmbH & Co. KG'] },
  AT: { region: 'de', legalForms: ['GmbH', 'AG'] },
  CH: { region: 'de', legalForms: ['AG', 'GmbH', 'SA'] },
  FR: { region: 'fr', legalForms: ['SAS', 'SARL', 'SA'] },
  BE: { region: 'fr', legalForms: ['SA', 'SRL'] },
  LU: { region: 'fr', legalForms: ['S.à r.l.', 'SA'] },
  ES: { region: 'es', legalForms: ['S.L.', 'S.A.'] },
  IT: { region: 'it', legalForms: ['S.p.A.', 'S.r.l.'] },
  NL: { region: 'nl', legalForms: ['B.V.', 'N.V.'] },
  SE: { region: 'nordic', legalForms: ['AB'] },
  NO: { region: 'nordic', legalForms: ['AS', 'ASA'] },
  DK: { region: 'nordic', legalForms: ['A/S', 'ApS'] },
  FI: { region: 'nordic', legalForms: ['Oy', 'Oyj'] },
  PL: { region: 'pl', legalForms: ['Sp. z o.o.', 'S.A.'] },
  PT: { region: 'pt', legalForms: ['Lda.', 'S.A.'] },
  JP: { region: 'ja', legalForms: ['K.K.', 'Co., Ltd.'] },
  SG: { region: 'en', legalForms: ['Pte. Ltd.'] },
  AU: { region: 'en', legalForms: ['Pty Ltd'] },
  IN: { region: 'en', legalForms: ['Pvt. Ltd.'] },
  AE: { region: 'en', legalForms: ['FZ-LLC', 'LLC'] },
  ZA: { region: 'en', legalForms: ['(Pty) Ltd'] },
  HK: { region: 'en', legalForms: ['Limited'] },
};

/** Where each tenant's customers are: a US business sells in the Americas, a UK one in Europe. */
const TENANT_MARKETS: Record<DemoTenantKey, readonly (readonly [string, number])[]> = {
  acme: [
    ['US', 10],
    ['CA', 3],
    ['MX', 2],
    ['BR', 2],
    ['GB', 2],
    ['DE', 2],
    ['JP', 1],
    ['SG', 1],
    ['AU', 1],
    ['IN', 1],
    ['AE', 1],
  ],
  globex: [
    ['GB', 8],
    ['IE', 2],
    ['DE', 3],
    ['FR', 3],
    ['NL', 2],
    ['ES', 2],
    ['IT', 2],
    ['SE', 1],
    ['NO', 1],
    ['DK', 1],
    ['FI', 1],
    ['PL', 1],
    ['CH', 1],
    ['AT', 1],
    ['BE', 1],
    ['LU', 1],
    ['PT', 1],
    ['ZA', 1],
    ['HK', 1],
  ],
};

const ENTITIES_PER_TENANT: Record<DemoTenantKey, number> = { acme: 32, globex: 28 };

const NICKNAMES: Record<string, string> = {
  Alexander: 'Alex',
  Alejandro: 'Álex',
  Christopher: 'Chris',
  Matthew: 'Matt',
  Maximilian: 'Max',
  Katharina: 'Kathi',
  Alessandro: 'Sandro',
  William: 'Will',
  Robert: 'Rob',
  Daniel: 'Dan',
  Andrew: 'Andy',
  Benjamin: 'Ben',
  Samuel: 'Sam',
  Francesca: 'Fran',
  Tobias: 'Tobi',
};

const STAFF_ACTORS = ['admin@example.com', 'maria.lopez@example.com', 'tom.becker@example.com'];

const LETTERS_WITHOUT_DECOMPOSITION: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  æ: 'ae',
  ß: 'ss',
  đ: 'd',
  œ: 'oe',
};

/** Lower-case ASCII for e-mail addresses and domains: 'Müller & Söhne' -> 'muller-sohne'. */
function asciiSlug(text: string, separator: '-' | ''): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[łøæßđœ]/g, (letter) => LETTERS_WITHOUT_DECOMPOSITION[letter] ?? '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join(separator);
}

/**
 * The story the timestamps tell: the countries and document types were imported, then the two
 * tenants were set up at the start of the 30-day window and bulk-imported their existing customers;
 * about a third of the entities were onboarded one by one since.
 */
const REFERENCE_DATA_IMPORTED_AGO = 30 * DAY - 30 * MINUTE;
const tenantCreatedAgo = (index: number) => 30 * DAY - (60 + index * 90) * MINUTE;
const entitiesImportedAgo = (index: number) => tenantCreatedAgo(index) - 45 * MINUTE;

function buildEntities(random: Random, now: Date): DemoEntity[] {
  const entities: DemoEntity[] = [];
  const usedNames = new Set<string>();
  DEMO_TENANTS.forEach((tenant, tenantIndex) => {
    for (let index = 0; index < ENTITIES_PER_TENANT[tenant.key]; index++) {
      const country = random.weighted(TENANT_MARKETS[tenant.key]);
      const profile = COUNTRIES[country] ?? { region: 'en', legalForms: ['Ltd'] };
      const region = REGIONS[profile.region] ?? ENGLISH;
      let entityName = '';
      let stem = '';
      let industry = '';
      do {
        stem = random.chance(0.5) ? random.pick(region.stems) : random.pick(ENGLISH.stems);
        industry = random.chance(0.6)
          ? random.pick(region.industries)
          : random.pick(ENGLISH.industries);
        entityName = `${stem} ${industry} ${random.pick(profile.legalForms)}`;
      } while (usedNames.has(entityName));
      usedNames.add(entityName);
      const names: EntityNames = { names: { entityName } };
      if (random.chance(0.3)) names.names.tradingName = stem;
      const onboardedSince = random.chance(0.3);
      const ageMs = onboardedSince
        ? random.int(60, 29 * 24 * 60) * MINUTE
        : entitiesImportedAgo(tenantIndex);
      entities.push({
        partyEntityId: random.uuid(),
        imported: !onboardedSince,
        emailDomain: `${asciiSlug(`${stem} ${industry}`, '-')}.example`,
        tenant: tenant.key,
        names,
        // Now and then the country was not recorded at onboarding.
        country: random.chance(0.05) ? null : country,
        createdAt: new Date(now.getTime() - ageMs),
      });
    }
  });
  return entities;
}

function buildKeys(random: Random, user: { isPrimary: boolean; email: string | null }) {
  const keys: Record<string, string> = {};
  const count = user.isPrimary
    ? random.weighted([
        [1, 3],
        [2, 4],
        [3, 3],
      ] as const)
    : random.weighted([
        [0, 4],
        [1, 4],
        [2, 2],
      ] as const);
  const makers: [string, () => string][] = [
    ['api_key', () => `sk_live_${random.string(48, BASE62)}`],
    ['sandbox_api_key', () => `sk_test_${random.string(32, BASE62)}`],
    ['webhook_secret', () => `whsec_${random.string(44, BASE64)}`],
    ['client_id', () => random.uuid()],
    [
      'ssh_public_key',
      () =>
        `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${random.string(43, BASE64)} ${user.email ?? 'ops@sftp'}`,
    ],
    [
      'pgp_fingerprint',
      () =>
        random
          .string(40, HEX)
          .toUpperCase()
          .replace(/(.{4})(?!$)/g, '$1 '),
    ],
    // A name with spaces and parentheses: the delete call must URL-encode it.
    ['SDK token (iOS)', () => `sdk_${random.string(24, BASE62)}`],
  ];
  // The primary user of an integration nearly always holds the live API key.
  if (user.isPrimary && random.chance(0.8)) {
    keys.api_key = `sk_live_${random.string(48, BASE62)}`;
  }
  while (Object.keys(keys).length < count) {
    const [name, make] = random.pick(makers);
    if (!(name in keys)) keys[name] = make();
  }
  return keys;
}

function buildEntityUsers(random: Random, now: Date, entities: DemoEntity[]): DemoEntityUser[] {
  const users: DemoEntityUser[] = [];
  for (const entity of entities) {
    const profile = (entity.country && COUNTRIES[entity.country]) || COUNTRIES.US;
    const region = REGIONS[profile?.region ?? 'en'] ?? ENGLISH;
    const count = random.weighted([
      [1, 35],
      [2, 40],
      [3, 25],
    ] as const);
    const usedEmails = new Set<string>();
    for (let index = 0; index < count; index++) {
      const givenName = random.pick(region.givenNames);
      const familyName = random.pick(region.familyNames);
      const isPrimary = index === 0;
      // 0 primary, 1 standard; an occasional other role number (e.g. a read-only auditor).
      const type = isPrimary
        ? 0
        : random.weighted([
            [1, 85],
            [2, 10],
            [3, 5],
          ] as const);
      const state = random.weighted([
        ['active', 75],
        ['invited', 17],
        ['suspended', 8],
      ] as const);
      let email: string | null =
        `${asciiSlug(givenName, '')}.${asciiSlug(familyName, '')}@${entity.emailDomain}`;
      if (usedEmails.has(email)) email = email.replace('@', `${index + 1}@`);
      usedEmails.add(email);
      if (!isPrimary && random.chance(0.04)) email = null;
      const preferredName =
        NICKNAMES[givenName] && random.chance(0.6) ? NICKNAMES[givenName] : givenName;
      // Imported users arrived with their entity; later ones within days, never in the future.
      const minutesSinceEntity = Math.floor((now.getTime() - entity.createdAt.getTime()) / MINUTE);
      const delay = random.int(1, Math.max(1, Math.min(5 * 24 * 60, minutesSinceEntity - 1)));
      users.push({
        partyUserId: random.uuid(),
        partyEntityId: entity.partyEntityId,
        tenant: entity.tenant,
        type,
        state,
        email,
        metadata: { preferredName, givenName, familyName },
        keys: state === 'invited' ? {} : buildKeys(random, { isPrimary, email }),
        createdAt: entity.imported
          ? entity.createdAt
          : new Date(entity.createdAt.getTime() + delay * MINUTE),
      });
    }
  }
  return users;
}

const SMTP_ERRORS = [
  'SMTP connection refused (127.0.0.1:19025)',
  'SMTP 550 5.1.1 <{email}>: Recipient address rejected: User unknown in virtual mailbox table',
  'SMTP greeting not received within 30000 ms (smtp.mail.internal:587)',
  'SMTP 421 4.7.0 Try again later, closing connection',
];
const AUDIT_ERRORS = [
  'Audit sink unavailable: connection terminated unexpectedly',
  'Audit record rejected: payload exceeds 256 KB',
];

interface EventDraft {
  eventName: string;
  tenant: DemoTenantKey | null;
  entityId: string | null;
  createdAt: Date;
  metadata: Record<string, unknown>;
  /** An e-mail the notification is addressed to, quoted by SMTP errors. */
  recipient?: string;
}

function buildEvents(
  random: Random,
  now: Date,
  entities: DemoEntity[],
  users: DemoEntityUser[],
  documentTypeIds: readonly string[],
): DemoEvent[] {
  const drafts: EventDraft[] = [];
  const at = (ageMs: number) => new Date(now.getTime() - ageMs);
  const staff = () => random.pick(STAFF_ACTORS);
  const portal = (tenant: DemoTenantKey) => `portal@${tenant}.example`;
  const actorFor = (tenant: DemoTenantKey) => (random.chance(0.5) ? portal(tenant) : staff());
  const usersOf = new Map<string, DemoEntityUser[]>();
  for (const user of users) {
    usersOf.set(user.partyEntityId, [...(usersOf.get(user.partyEntityId) ?? []), user]);
  }

  drafts.push(
    {
      eventName: 'CountriesImported',
      tenant: null,
      entityId: null,
      createdAt: at(REFERENCE_DATA_IMPORTED_AGO),
      metadata: {
        actor: 'admin@example.com',
        action: 'import',
        count: 249,
        file: 'countries.json',
      },
    },
    {
      eventName: 'DocumentTypesImported',
      tenant: null,
      entityId: null,
      createdAt: at(REFERENCE_DATA_IMPORTED_AGO - 5 * MINUTE),
      metadata: {
        actor: 'admin@example.com',
        action: 'import',
        count: documentTypeIds.length,
        file: 'document-types.json',
      },
    },
  );

  DEMO_TENANTS.forEach((tenant, index) => {
    const created = at(tenantCreatedAgo(index));
    drafts.push({
      eventName: 'TenantCreated',
      tenant: tenant.key,
      entityId: null,
      createdAt: created,
      metadata: {
        actor: 'admin@example.com',
        action: 'create',
        companyName: tenant.companyName,
        namespaces: tenant.namespaces,
      },
    });
    for (const email of tenant.users) {
      drafts.push({
        eventName: 'TenantUserCreated',
        tenant: tenant.key,
        entityId: null,
        createdAt: new Date(created.getTime() + 12 * MINUTE),
        metadata: { actor: 'admin@example.com', action: 'create', email },
        recipient: email,
      });
    }
    const imported = entities.filter((e) => e.tenant === tenant.key && e.imported);
    drafts.push(
      {
        eventName: 'EntitiesImported',
        tenant: tenant.key,
        entityId: null,
        createdAt: at(entitiesImportedAgo(index)),
        metadata: {
          actor: portal(tenant.key),
          action: 'import',
          count: imported.length,
          file: `${tenant.key}-customers.json`,
        },
      },
      {
        eventName: 'EntityUsersImported',
        tenant: tenant.key,
        entityId: null,
        createdAt: at(entitiesImportedAgo(index) - 2 * MINUTE),
        metadata: {
          actor: portal(tenant.key),
          action: 'import',
          count: imported.reduce((sum, e) => sum + (usersOf.get(e.partyEntityId)?.length ?? 0), 0),
          file: `${tenant.key}-customer-users.json`,
        },
      },
    );
  });

  // Entities onboarded one by one since, with their users.
  for (const entity of entities) {
    if (entity.imported) continue;
    drafts.push({
      eventName: 'EntityCreated',
      tenant: entity.tenant,
      entityId: entity.partyEntityId,
      createdAt: entity.createdAt,
      metadata: {
        actor: actorFor(entity.tenant),
        action: 'create',
        entityName: entity.names.names.entityName,
        country: entity.country,
      },
    });
    for (const user of usersOf.get(entity.partyEntityId) ?? []) {
      const invited = user.state === 'invited';
      drafts.push({
        eventName: invited ? 'EntityUserInvited' : 'EntityUserCreated',
        tenant: user.tenant,
        entityId: entity.partyEntityId,
        createdAt: user.createdAt,
        metadata: {
          actor: actorFor(user.tenant),
          action: invited ? 'invite' : 'create',
          partyUserId: user.partyUserId,
          email: user.email,
          type: user.type,
        },
        ...(user.email ? { recipient: user.email } : {}),
      });
    }
  }

  // Everyday activity fills the rest of the log.
  const activity: [string, number][] = [
    ['EntityUpdated', 12],
    ['EntityProfileSubmitted', 7],
    ['EntityUserStateChanged', 7],
    ['EntityUserKeyCreated', 6],
    ['EntityUserKeyDeleted', 6],
    ['TenantUpdated', 2],
    ['TenantProfileSubmitted', 2],
    ['DocumentTypeUpdated', 4],
    ['TestEvent', 3],
  ];
  const TARGET = 150;
  const RECENT = 5;
  const windowStart = now.getTime() - tenantCreatedAgo(DEMO_TENANTS.length - 1) + 60 * MINUTE;
  while (drafts.length < TARGET) {
    const eventName = random.weighted(activity);
    const entity = random.pick(entities);
    const entityUsers = usersOf.get(entity.partyEntityId) ?? [];
    const user = entityUsers.length > 0 ? random.pick(entityUsers) : undefined;
    const tenant = entity.tenant;
    // After what it refers to existed; the last few arrived minutes ago and wait for the workers.
    const since = Math.max(windowStart, (user ?? entity).createdAt.getTime());
    const sinceMinutes = Math.max(20, Math.floor((now.getTime() - since) / MINUTE));
    const recent = drafts.length >= TARGET - RECENT;
    const createdAt = at(
      recent ? random.int(1, 15) * MINUTE : random.int(20, sinceMinutes) * MINUTE,
    );
    switch (eventName) {
      case 'EntityUpdated':
        drafts.push({
          eventName,
          tenant,
          entityId: entity.partyEntityId,
          createdAt,
          metadata: {
            actor: actorFor(tenant),
            action: 'update',
            changes: [random.pick(['names.entityName', 'names.tradingName', 'country'])],
          },
        });
        break;
      case 'EntityProfileSubmitted':
        drafts.push({
          eventName,
          tenant,
          entityId: entity.partyEntityId,
          createdAt,
          metadata: { actor: portal(tenant), action: 'submit', form: 'EditEntityProfile' },
        });
        break;
      case 'EntityUserStateChanged': {
        if (!user) break;
        const to = user.state === 'invited' ? 'active' : random.pick(['suspended', 'active']);
        drafts.push({
          eventName,
          tenant,
          entityId: entity.partyEntityId,
          createdAt,
          metadata: {
            actor: staff(),
            action: 'update',
            partyUserId: user.partyUserId,
            from: to === 'active' ? random.pick(['invited', 'suspended']) : 'active',
            to,
          },
          ...(user.email ? { recipient: user.email } : {}),
        });
        break;
      }
      case 'EntityUserKeyCreated':
      case 'EntityUserKeyDeleted': {
        if (!user) break;
        const held = Object.keys(user.keys);
        const gone = ['api_key', 'webhook_secret', 'sandbox_api_key', 'client_id'].filter(
          (name) => !held.includes(name),
        );
        const created = eventName === 'EntityUserKeyCreated';
        const keyName =
          created && held.length > 0 ? random.pick(held) : random.pick(gone.length ? gone : held);
        if (!keyName) break;
        drafts.push({
          eventName,
          tenant,
          entityId: entity.partyEntityId,
          createdAt,
          metadata: {
            actor: created ? portal(tenant) : 'admin@example.com',
            action: created ? 'create' : 'delete',
            partyUserId: user.partyUserId,
            keyName,
          },
        });
        break;
      }
      case 'TenantUpdated':
        drafts.push({
          eventName,
          tenant,
          entityId: null,
          createdAt,
          metadata: { actor: staff(), action: 'update', changes: ['namespaces'] },
        });
        break;
      case 'TenantProfileSubmitted':
        drafts.push({
          eventName,
          tenant,
          entityId: null,
          createdAt,
          metadata: { actor: portal(tenant), action: 'submit', form: 'EditTenantProfile' },
        });
        break;
      case 'DocumentTypeUpdated':
        drafts.push({
          eventName,
          tenant: null,
          entityId: null,
          createdAt,
          metadata: {
            actor: 'admin@example.com',
            action: 'update',
            documentTypeId: random.pick(documentTypeIds),
            changes: [random.pick(['apiReferences', 'tags', 'validityPeriod', 'sequence'])],
          },
        });
        break;
      default:
        drafts.push({
          eventName: 'TestEvent',
          tenant: null,
          entityId: null,
          createdAt,
          metadata: { actor: staff(), action: 'test', message: 'Test event from the console' },
        });
    }
  }

  drafts.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const recentCutoff = now.getTime() - 16 * MINUTE;
  return drafts.map((draft) => {
    const recent = draft.createdAt.getTime() >= recentCutoff;
    const processing = recent ? pendingProcessing(random, draft) : settledProcessing(random, draft);
    const hasError = processing.some((row) => row.hasError);
    const isProcessed =
      !hasError &&
      EVENT_WORKERS.every((worker) =>
        processing.some((row) => row.worker === worker && row.processedAt !== null),
      );
    return {
      eventName: draft.eventName,
      tenant: draft.tenant,
      entityId: draft.entityId,
      uniqueId: random.uuid(),
      createdAt: draft.createdAt,
      metadata: draft.metadata,
      processing,
      isProcessed,
      hasError,
    };
  });
}

/** A fresh event: no worker has it yet, or only the audit trail has recorded it. */
function pendingProcessing(random: Random, draft: EventDraft): DemoProcessing[] {
  if (random.chance(0.5)) return [];
  return [
    {
      worker: 'audit-trail',
      hasError: false,
      errorMessage: null,
      processedAt: new Date(draft.createdAt.getTime() + random.int(1, 20) * 1000),
      attempts: 1,
    },
  ];
}

/** An older event: mostly done by both workers; a few failures, a few still waiting. */
function settledProcessing(random: Random, draft: EventDraft): DemoProcessing[] {
  const done = (worker: EventWorker): DemoProcessing => ({
    worker,
    hasError: false,
    errorMessage: null,
    processedAt: new Date(draft.createdAt.getTime() + random.int(1, 90) * 1000),
    attempts: random.chance(0.1) ? 2 : 1,
  });
  const failed = (worker: EventWorker, message: string): DemoProcessing => ({
    worker,
    hasError: true,
    errorMessage: message,
    processedAt: null,
    attempts: random.int(1, 5),
  });
  const roll = random.next();
  if (roll < 0.05) {
    // A notification to a named recipient can bounce; any can meet a mail server that is down.
    const messages = draft.recipient
      ? SMTP_ERRORS
      : SMTP_ERRORS.filter((m) => !m.includes('{email}'));
    const message = random.pick(messages).replace('{email}', draft.recipient ?? '');
    return [done('audit-trail'), failed('notifications', message)];
  }
  if (roll < 0.065) {
    return [failed('audit-trail', random.pick(AUDIT_ERRORS)), done('notifications')];
  }
  if (roll < 0.095) return [done('audit-trail')];
  return [done('audit-trail'), done('notifications')];
}

/** The whole demo data set for a given moment; the same `now` always gives the same data. */
export function buildDemoData(now: Date, documentTypeIds: readonly string[]): DemoData {
  const random = createRandom('kyc-admin-console demo data v1');
  const entities = buildEntities(random, now);
  const entityUsers = buildEntityUsers(random, now, entities);
  const events = buildEvents(random, now, entities, entityUsers, documentTypeIds);
  return { tenants: DEMO_TENANTS, entities, entityUsers, events };
}
