import { Collapsible as CollapsiblePrimitive } from 'radix-ui';
import { slotted } from './slotted';

const Collapsible = slotted(CollapsiblePrimitive.Root, 'collapsible');

const CollapsibleTrigger = slotted(CollapsiblePrimitive.CollapsibleTrigger, 'collapsible-trigger');

const CollapsibleContent = slotted(CollapsiblePrimitive.CollapsibleContent, 'collapsible-content');

export { Collapsible, CollapsibleTrigger, CollapsibleContent };
