export { ProfileButton } from './profile-button';
export { EntityProfileDialog, TenantProfileDialog } from './lazy-profile-dialogs';
