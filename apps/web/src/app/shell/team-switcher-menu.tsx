import type { ReactElement } from 'react';
import { PlusIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import {
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu';
import { SidebarDropdownMenu } from './sidebar-dropdown-menu';
import type { Team } from './team-switcher';

/** The team switcher's menu (loaded with its first use, team-switcher.tsx). */
export default function TeamSwitcherMenu({
  teams,
  onSelect,
  trigger,
  openedByKeyboard,
}: {
  teams: readonly Team[];
  onSelect: (team: Team) => void;
  trigger: ReactElement;
  openedByKeyboard: boolean;
}) {
  const { t } = useTranslation();
  return (
    <SidebarDropdownMenu trigger={trigger} align="start" openedByKeyboard={openedByKeyboard}>
      <DropdownMenuLabel className="text-muted-foreground text-xs">
        {t('team.label')}
      </DropdownMenuLabel>
      {teams.map((team) => (
        <DropdownMenuItem key={team.id} onSelect={() => onSelect(team)} className="gap-2 p-2">
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
    </SidebarDropdownMenu>
  );
}
