import type { ReactNode } from 'react';
import { ChevronsUpDownIcon } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';

/**
 * A large sidebar button that opens a menu beside the sidebar (below it on a phone): the team
 * switcher at the top, the user menu at the bottom.
 */
export function SidebarMenuDropdown({
  button,
  align,
  children,
}: {
  /** What the button shows, left of its chevron. */
  button: ReactNode;
  align: 'start' | 'end';
  /** The menu's items. */
  children: ReactNode;
}) {
  const { isMobile } = useSidebar();
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
              {button}
              <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            className="w-(--radix-dropdown-menu-trigger-width) min-w-56 rounded-lg"
            side={isMobile ? 'bottom' : 'right'}
            align={align}
            sideOffset={4}
          >
            {children}
          </DropdownMenuContent>
        </DropdownMenu>
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
