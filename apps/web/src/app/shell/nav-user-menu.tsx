import type { ReactElement } from 'react';
import { BadgeCheckIcon, BellIcon, CreditCardIcon, LogOutIcon, SparklesIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { clearTokens } from '@/lib/auth-session';
import type { SignedInUser } from '@/lib/signed-in-user';
import { navigateFullPage } from '../full-page-navigation';
import { paths } from '../paths';
import { SidebarDropdownMenu } from './sidebar-dropdown-menu';
import { UserSummary } from './user-summary';

/** Spec part 1, section 2: 'Log out' clears the stored tokens and navigates to /signout. */
function logOut(): void {
  clearTokens();
  navigateFullPage(paths.signout());
}

/** The user menu (loaded with its first use, nav-user.tsx). */
export default function NavUserMenu({
  user,
  trigger,
  openedByKeyboard,
}: {
  user: SignedInUser;
  trigger: ReactElement;
  openedByKeyboard: boolean;
}) {
  const { t } = useTranslation();
  return (
    <SidebarDropdownMenu trigger={trigger} align="end" openedByKeyboard={openedByKeyboard}>
      <DropdownMenuLabel className="p-0 font-normal">
        <div className="flex items-center gap-2 px-1 py-1.5 text-left text-sm">
          <UserSummary user={user} />
        </div>
      </DropdownMenuLabel>
      <DropdownMenuSeparator />
      {/* The spec gives these items no behaviour. */}
      <DropdownMenuGroup>
        <DropdownMenuItem>
          <SparklesIcon aria-hidden="true" />
          {t('user.upgrade')}
        </DropdownMenuItem>
      </DropdownMenuGroup>
      <DropdownMenuSeparator />
      <DropdownMenuGroup>
        <DropdownMenuItem>
          <BadgeCheckIcon aria-hidden="true" />
          {t('user.account')}
        </DropdownMenuItem>
        <DropdownMenuItem>
          <CreditCardIcon aria-hidden="true" />
          {t('user.billing')}
        </DropdownMenuItem>
        <DropdownMenuItem>
          <BellIcon aria-hidden="true" />
          {t('user.notifications')}
        </DropdownMenuItem>
      </DropdownMenuGroup>
      <DropdownMenuSeparator />
      <DropdownMenuItem onSelect={logOut}>
        <LogOutIcon aria-hidden="true" />
        {t('user.logOut')}
      </DropdownMenuItem>
    </SidebarDropdownMenu>
  );
}
