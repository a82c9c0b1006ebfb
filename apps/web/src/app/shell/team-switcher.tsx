import { lazy, useState } from 'react';
import { ShieldCheckIcon, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { MenuButtonText, SidebarMenuDropdown } from './sidebar-menu-dropdown';

const loadMenu = () => import('./team-switcher-menu');
const TeamSwitcherMenu = lazy(loadMenu);

export interface Team {
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
      prefetch={loadMenu}
      menu={(trigger, openedByKeyboard) => (
        <TeamSwitcherMenu
          teams={teams}
          onSelect={(team) => setActiveTeamId(team.id)}
          trigger={trigger}
          openedByKeyboard={openedByKeyboard}
        />
      )}
    />
  );
}
