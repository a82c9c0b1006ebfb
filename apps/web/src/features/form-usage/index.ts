export { ProfileButton } from './profile-button';
export { EntityProfileDialog, TenantProfileDialog } from './profile-dialog';
