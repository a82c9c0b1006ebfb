/**
 * The profile dialogs as the tenants and entities screens mount them: their code (the dynamic
 * form host and DOMPurify among it) loads when a profile is first opened, not with the screen.
 */
import { lazyDialog } from '@/components/lazy-dialog';

export const TenantProfileDialog = lazyDialog(
  async () => (await import('./profile-dialog')).TenantProfileDialog,
);
export const EntityProfileDialog = lazyDialog(
  async () => (await import('./profile-dialog')).EntityProfileDialog,
);
