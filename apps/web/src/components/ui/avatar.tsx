import { Avatar as AvatarPrimitive } from 'radix-ui';
import { slotted } from './slotted';

const Avatar = slotted(
  AvatarPrimitive.Root,
  'avatar',
  'relative flex size-8 shrink-0 overflow-hidden rounded-full',
);

const AvatarImage = slotted(AvatarPrimitive.Image, 'avatar-image', 'aspect-square size-full');

const AvatarFallback = slotted(
  AvatarPrimitive.Fallback,
  'avatar-fallback',
  'bg-muted flex size-full items-center justify-center rounded-full',
);

export { Avatar, AvatarImage, AvatarFallback };
