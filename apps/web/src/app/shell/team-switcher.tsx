import { useState } from 'react';
import { ChevronsUpDownIcon, PlusIcon, ShieldCheckIcon, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenu,
  DropdownMenuContent,
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

interface Team {
  id: string;
  name: string;
  plan: string;
  logo: LucideIcon;
}

/**
 * shadcn's team switcher with the product's one fixed team (spec part 1, section 1): switching
 * only changes the displayed team; 'Add team' does nothing visible.
 */
export function TeamSwitcher() {
  const { t } = useTranslation();
  const { isMobile } = useSidebar();
  const teams: Team[] = [
    {
      id: 'verification-console',
      name: t('team.name'),
      plan: t('team.plan'),
      logo: ShieldCheckIcon,
    },
  ];
  const [activeTeamId, setActiveTeamId] = useState(teams[0]?.id);
  const activeTeam = teams.find((team) => team.id === activeTeamId) ?? teams[0];
  if (!activeTeam) return null;

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
              <div className="bg-sidebar-primary text-sidebar-primary-foreground flex aspect-square size-8 items-center justify-center rounded-lg">
                <activeTeam.logo className="size-4" aria-hidden="true" />
              </div>
              <div className="grid flex-1 text-left text-sm leading-tight">
                <span className="truncate font-medium">{activeTeam.name}</span>
                <span className="truncate text-xs">{activeTeam.plan}</span>
              </div>
              <ChevronsUpDownIcon className="ml-auto" aria-hidden="true" />
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            className="w-(--radix-dropdown-menu-trigger-width) min-w-56 rounded-lg"
            align="start"
            side={isMobile ? 'bottom' : 'right'}
            sideOffset={4}
          >
            <DropdownMenuLabel className="text-muted-foreground text-xs">
              {t('team.label')}
            </DropdownMenuLabel>
            {teams.map((team) => (
              <DropdownMenuItem
                key={team.id}
                onSelect={() => setActiveTeamId(team.id)}
                className="gap-2 p-2"
              >
                <div className="flex size-6 items-center justify-center rounded-md border">
                  <team.logo className="size-3.5 shrink-0" aria-hidden="true" />
                </div>
                {team.name}
              </DropdownMenuItem>
            ))}
            <DropdownMenuSeparator />
            <DropdownMenuItem className="gap-2 p-2">
              <div className="flex size-6 items-center justify-center rounded-md border bg-transparent">
                <PlusIcon className="size-4" aria-hidden="true" />
              </div>
              <div className="text-muted-foreground font-medium">{t('team.addTeam')}</div>
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
