import { BadgeCheckIcon, BellIcon, CreditCardIcon, LogOutIcon, SparklesIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import {
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { clearTokens } from '@/lib/auth-session';
import { useSignedInUser, type SignedInUser } from '@/lib/signed-in-user';
import { navigateFullPage } from '../full-page-navigation';
import { paths } from '../paths';
import { MenuButtonText, SidebarMenuDropdown } from './sidebar-menu-dropdown';

/** Spec part 1, section 2: 'Log out' clears the stored tokens and navigates to /signout. */
export function logOut(): void {
  clearTokens();
  navigateFullPage(paths.signout());
}

function UserSummary({ user }: { user: SignedInUser }) {
  return (
    <>
      <Avatar className="h-8 w-8 rounded-lg">
        {user.avatar && <AvatarImage src={user.avatar} alt="" />}
        <AvatarFallback className="rounded-lg">{user.initials}</AvatarFallback>
      </Avatar>
      <MenuButtonText title={user.name} subtitle={user.email} />
    </>
  );
}

/** The sidebar footer: the signed-in user, opening the user menu. */
export function NavUser() {
  const { t } = useTranslation();
  const user = useSignedInUser();

  return (
    <SidebarMenuDropdown button={<UserSummary user={user} />} align="end">
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
    </SidebarMenuDropdown>
  );
}
