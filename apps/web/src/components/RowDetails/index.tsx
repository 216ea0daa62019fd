import type { ReactNode } from 'react';
import { Descriptions } from 'antd';
import './row-details.css';

export interface RowDetail {
  label: string;
  value: ReactNode;
}

/**
 * A table's `expandable`: the columns a trader does not decide on (times, delivery place, counterparty, serial
 * numbers) open under the row, so the key columns keep explicit widths and whole numbers at 1440 px, with no
 * horizontal scrolling and nothing under the fixed 操作 column.
 */
export function rowDetails<T>(details: (row: T) => RowDetail[]) {
  return {
    columnWidth: 40,
    expandedRowRender: (row: T) => (
      <Descriptions
        className="coalx-row-details"
        size="small"
        column={3}
        items={details(row).map((d) => ({ key: d.label, label: d.label, children: d.value }))}
      />
    ),
  };
}
