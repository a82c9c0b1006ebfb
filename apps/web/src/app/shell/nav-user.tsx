import { lazy } from 'react';
import { useSignedInUser } from '@/lib/signed-in-user';
import { SidebarMenuDropdown } from './sidebar-menu-dropdown';
import { UserSummary } from './user-summary';

const loadMenu = () => import('./nav-user-menu');
const NavUserMenu = lazy(loadMenu);

/** The sidebar footer: the signed-in user, opening the user menu. */
export function NavUser() {
  const user = useSignedInUser();
  return (
    <SidebarMenuDropdown
      button={<UserSummary user={user} />}
      prefetch={loadMenu}
      menu={(trigger, openedByKeyboard) => (
        <NavUserMenu user={user} trigger={trigger} openedByKeyboard={openedByKeyboard} />
      )}
    />
  );
}
