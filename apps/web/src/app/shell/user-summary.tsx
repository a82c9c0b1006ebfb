import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import type { SignedInUser } from '@/lib/signed-in-user';
import { MenuButtonText } from './sidebar-menu-dropdown';

/** The signed-in user's avatar, name and email: the user button and the user menu's label. */
export function UserSummary({ user }: { user: SignedInUser }) {
  return (
    <>
      <Avatar className="h-8 w-8 rounded-lg">
        {user.avatar && <AvatarImage src={user.avatar} alt="" />}
        <AvatarFallback className="rounded-lg">{user.initials}</AvatarFallback>
      </Avatar>
      <MenuButtonText title={user.name} subtitle={user.email} />
    </>
  );
}
