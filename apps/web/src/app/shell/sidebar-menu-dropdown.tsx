import { Suspense, useState, type ReactElement, type ReactNode } from 'react';
import { ChevronsUpDownIcon } from 'lucide-react';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem } from '@/components/ui/sidebar';

/**
 * A large sidebar button that opens a menu beside the sidebar (below it on a phone): the team
 * switcher at the top, the user menu at the bottom. The menu (Radix's dropdown menu, about
 * 15 kB gzip with its items) is not needed before the shell is usable: `prefetch` loads it when
 * the pointer comes over the button or the button gets the focus, and a press before it arrived
 * opens it as soon as it does. `menu` renders the loaded menu (SidebarDropdownMenu) around the
 * trigger it is given.
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
  /** The lazily loaded menu around `trigger`, open at once when `defaultOpen`. */
  menu: (trigger: ReactElement, defaultOpen: boolean) => ReactNode;
}) {
  const [pressed, setPressed] = useState(false);
  const trigger = (
    <SidebarMenuButton
      size="lg"
      className="data-[state=open]:bg-sidebar-accent data-[state=open]:text-sidebar-accent-foreground"
    >
      {button}
      <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
    </SidebarMenuButton>
  );
  const placeholder = (
    <SidebarMenuButton
      size="lg"
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void prefetch()}
      onFocus={() => void prefetch()}
      onClick={() => setPressed(true)}
    >
      {button}
      <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
    </SidebarMenuButton>
  );
  return (
    <SidebarMenu>
      <SidebarMenuItem>
        {pressed ? <Suspense fallback={placeholder}>{menu(trigger, true)}</Suspense> : placeholder}
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
