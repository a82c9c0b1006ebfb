import { slotted } from './slotted';

// shadcn/ui's card (new-york style), its parts made with `slotted` like the other primitives.
const Card = slotted(
  'div',
  'card',
  'bg-card text-card-foreground flex flex-col gap-4 rounded-xl border py-4 shadow-sm',
);
const CardHeader = slotted(
  'div',
  'card-header',
  'grid auto-rows-min grid-rows-[auto_auto] items-start gap-1.5 px-4',
);
const CardTitle = slotted('div', 'card-title', 'leading-none font-semibold');
const CardDescription = slotted('div', 'card-description', 'text-muted-foreground text-sm');
const CardContent = slotted('div', 'card-content', 'px-4');

export { Card, CardContent, CardDescription, CardHeader, CardTitle };
