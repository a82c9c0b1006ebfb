import { COUNTRY_RISK } from '../features/ratings-import/country-risk.ts';
import { AUDIT_TRAIL } from './audit-trail.ts';
import { NOTIFICATIONS } from './notifications.ts';
import type { EventSubscription } from './worker.ts';

/**
 * The console's workers and what they subscribe to: every instance records processing records
 * from this list, so it is code, the same on every instance of a build (docs/events.md).
 */
export const EVENT_SUBSCRIPTIONS: readonly EventSubscription[] = [
  AUDIT_TRAIL,
  NOTIFICATIONS,
  COUNTRY_RISK,
];
