export { ChangePanel, ChangeTable, JsonBlock, PanelSection } from './change-panel';
export type { ChangePanelProps } from './change-panel';
