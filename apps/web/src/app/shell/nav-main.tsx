import { useId } from 'react';
import {
  ActivityIcon,
  BriefcaseIcon,
  Building2Icon,
  ClipboardListIcon,
  ContactIcon,
  DatabaseIcon,
  FileCodeIcon,
  FileTextIcon,
  GlobeIcon,
  HistoryIcon,
  MailIcon,
  SettingsIcon,
  TextCursorInputIcon,
  UsersIcon,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import {
  SidebarGroup,
  SidebarGroupLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import type { NavIcon } from '../route-types';
import type { NavSection } from './nav-items';

const NAV_ICONS: Record<NavIcon, LucideIcon> = {
  tenants: Building2Icon,
  tenantUsers: UsersIcon,
  entities: BriefcaseIcon,
  entityUsers: ContactIcon,
  events: ActivityIcon,
  auditLog: HistoryIcon,
  countries: GlobeIcon,
  documentTypes: FileTextIcon,
  emailSettings: SettingsIcon,
  emailTemplates: MailIcon,
  forms: ClipboardListIcon,
  formFields: TextCursorInputIcon,
  migrations: DatabaseIcon,
  databaseScripts: FileCodeIcon,
};

/** The navigation groups; the item whose url equals the current path is highlighted. */
export function NavMain({ sections }: { sections: readonly NavSection[] }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = pathname.replace(/\/+$/, '') || '/';
  const idPrefix = useId();
  const { isMobile, setOpenMobile } = useSidebar();
  return (
    <nav aria-label={t('nav.label')} className="flex flex-col">
      {sections.map((section) => {
        const labelId = `${idPrefix}-${section.group}`;
        return (
          <SidebarGroup key={section.group}>
            <SidebarGroupLabel id={labelId}>{t(section.label)}</SidebarGroupLabel>
            <SidebarMenu aria-labelledby={labelId}>
              {section.items.map((item) => {
                const Icon = NAV_ICONS[item.icon];
                const isActive = item.url === current;
                const label = t(item.label);
                return (
                  <SidebarMenuItem key={item.url}>
                    <SidebarMenuButton asChild isActive={isActive} tooltip={label}>
                      <Link
                        to={item.url}
                        aria-current={isActive ? 'page' : undefined}
                        // The slide-in panel closes once the user picked a screen.
                        onClick={() => isMobile && setOpenMobile(false)}
                      >
                        <Icon aria-hidden="true" />
                        <span>{label}</span>
                      </Link>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                );
              })}
            </SidebarMenu>
          </SidebarGroup>
        );
      })}
    </nav>
  );
}
