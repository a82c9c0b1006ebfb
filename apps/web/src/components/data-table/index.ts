export {
  DataTable,
  type DataTableHandle,
  type DataTableProps,
  type RowSelection,
  type ServerPaging,
} from './data-table';
export {
  DataTablePagination,
  type DataTablePaginationProps,
  type PagerTexts,
  usePageNumberPagerTexts,
} from './data-table-pagination';
export { PageSizeSelect } from './page-size-select';
export { ApiErrorAlert } from '../api-error-alert';
export { WaitingForConfiguration } from '../waiting-for-configuration';
export { useDeleteRow, type DeleteRowOptions } from './use-delete-row';
export { DeleteRowDialog, LazyConfirmDialog, type DeleteRowDialogProps } from './delete-row-dialog';
export { RowActions, type RowActionsProps } from './row-actions';
export { AddButton, ListScreen } from './list-screen';
export { QueryTable, type ListPage, type TableQuery } from './query-table';
export { useRowDialogs, type RowDialogs } from './use-row-dialogs';
