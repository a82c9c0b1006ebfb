import type { ReactElement, ReactNode } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useFirstItemFocus } from '@/components/lazy-menu';
import { useSidebar } from '@/components/ui/sidebar';

/**
 * The menu of a SidebarMenuDropdown: Radix's dropdown menu beside the sidebar (below it on a
 * phone). Only the lazily loaded menus import it (the team switcher's and the user's).
 */
export function SidebarDropdownMenu({
  trigger,
  align,
  openedByKeyboard,
  children,
}: {
  /** The sidebar button that opens the menu. */
  trigger: ReactElement;
  align: 'start' | 'end';
  /** A key press opened it (it opens at once: the button was pressed before its code arrived). */
  openedByKeyboard: boolean;
  /** The menu's items. */
  children: ReactNode;
}) {
  const { isMobile } = useSidebar();
  const content = useFirstItemFocus(openedByKeyboard);
  return (
    // Not modal: a modal menu hides the rest of the page with aria-hidden while it still holds
    // focusable elements (axe: aria-hidden-focus).
    <DropdownMenu modal={false} defaultOpen>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent
        className="w-(--radix-dropdown-menu-trigger-width) min-w-56 rounded-lg"
        side={isMobile ? 'bottom' : 'right'}
        align={align}
        sideOffset={4}
        ref={content}
      >
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
