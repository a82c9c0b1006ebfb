import type { ReactElement, ReactNode } from 'react';
import { ChevronsUpDownIcon } from 'lucide-react';
import { LazyMenu } from '@/components/lazy-menu';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem } from '@/components/ui/sidebar';

/**
 * A large sidebar button that opens a menu beside the sidebar (below it on a phone): the team
 * switcher at the top, the user menu at the bottom. The menu loads on its first use (LazyMenu);
 * `menu` renders the loaded menu (SidebarDropdownMenu) around the trigger it is given.
 */
export function SidebarMenuDropdown({
  button,
  prefetch,
  menu,
}: {
  /** What the button shows, left of its chevron. */
  button: ReactNode;
  /** Starts loading the menu's module (the import that `menu`'s lazy component makes). */
  prefetch: () => Promise<unknown>;
  /** The lazily loaded menu around `trigger`, told whether a key press opened it. */
  menu: (trigger: ReactElement, openedByKeyboard: boolean) => ReactNode;
}) {
  return (
    <SidebarMenu>
      <SidebarMenuItem>
        <LazyMenu
          prefetch={prefetch}
          menu={menu}
          button={(props) => (
            <SidebarMenuButton
              size="lg"
              className="data-[state=open]:bg-sidebar-accent data-[state=open]:text-sidebar-accent-foreground"
              {...props}
            >
              {button}
              <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
            </SidebarMenuButton>
          )}
        />
      </SidebarMenuItem>
    </SidebarMenu>
  );
}

/** Two lines of a menu button or menu label: a name, and a smaller line under it. */
export function MenuButtonText({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <div className="grid flex-1 text-left text-sm leading-tight">
      <span className="truncate font-medium">{title}</span>
      <span className="truncate text-xs">{subtitle}</span>
    </div>
  );
}
