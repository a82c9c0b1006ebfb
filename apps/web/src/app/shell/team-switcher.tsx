import { useState } from 'react';
import { PlusIcon, ShieldCheckIcon, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { MenuButtonText, SidebarMenuDropdown } from './sidebar-menu-dropdown';

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
    <SidebarMenuDropdown
      button={
        <>
          <div className="bg-sidebar-primary text-sidebar-primary-foreground flex aspect-square size-8 items-center justify-center rounded-lg">
            <activeTeam.logo className="size-4" aria-hidden="true" />
          </div>
          <MenuButtonText title={activeTeam.name} subtitle={activeTeam.plan} />
        </>
      }
      align="start"
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
    </SidebarMenuDropdown>
  );
}
