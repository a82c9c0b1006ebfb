import {
  BadgeCheckIcon,
  BellIcon,
  ChevronsUpDownIcon,
  CreditCardIcon,
  LogOutIcon,
  SparklesIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { clearTokens } from '@/lib/auth-session';
import { useSignedInUser, type SignedInUser } from '@/lib/signed-in-user';
import { navigateFullPage } from '../full-page-navigation';
import { paths } from '../paths';

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
      <div className="grid flex-1 text-left text-sm leading-tight">
        <span className="truncate font-medium">{user.name}</span>
        <span className="truncate text-xs">{user.email}</span>
      </div>
    </>
  );
}

/** The sidebar footer: the signed-in user, opening the user menu. */
export function NavUser() {
  const { t } = useTranslation();
  const { isMobile } = useSidebar();
  const user = useSignedInUser();

  return (
    <SidebarMenu>
      <SidebarMenuItem>
        {/* Not modal: a modal menu hides the rest of the page with aria-hidden while it still
            holds focusable elements (axe: aria-hidden-focus). */}
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <SidebarMenuButton
              size="lg"
              className="data-[state=open]:bg-sidebar-accent data-[state=open]:text-sidebar-accent-foreground"
            >
              <UserSummary user={user} />
              <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            className="w-(--radix-dropdown-menu-trigger-width) min-w-56 rounded-lg"
            side={isMobile ? 'bottom' : 'right'}
            align="end"
            sideOffset={4}
          >
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
          </DropdownMenuContent>
        </DropdownMenu>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
