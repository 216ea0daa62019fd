import { useState, type MutableRefObject } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType } from '@ant-design/pro-components';
import { Button, Radio } from 'antd';
import { useSearchParams } from 'react-router';
import { DEPOSIT_IN_STATUS, WITHDRAWAL_STATUS } from '@coalx/shared';
import Authorized from '@/components/Authorized';
import { listOwnTransfers, type Transfer, type TransferKind } from '@/services/funds';
import { transferColumns, transferDetails } from '@/components/funds/transfer-columns';
import { rowDetails } from '@/components/RowDetails';

export interface TransferTableProps {
  kind: TransferKind;
  onApply: () => void;
  /** Bumped by the page after a new application so the table reloads. */
  actionRef: MutableRefObject<ActionType | undefined>;
}

/** The enterprise's own 入金 or 出金 applications with their states and reject reasons. */
export default function TransferTable({ kind, onApply, actionRef }: TransferTableProps) {
  const statuses = kind === 'depositIn' ? DEPOSIT_IN_STATUS : WITHDRAWAL_STATUS;
  // the 待办 处理中的入金/出金 links here with ?status=pending
  const [search] = useSearchParams();
  const linked = search.get('status') ?? '';
  const [status, setStatus] = useState<string>(linked in statuses ? linked : '');

  return (
    <ProTable<Transfer, { status: string }>
      rowKey="id"
      actionRef={actionRef}
      headerTitle={kind === 'depositIn' ? '入金申请记录' : '出金申请记录'}
      columns={transferColumns(kind)}
      params={{ status }}
      search={false}
      cardBordered
      options={{ reload: true, density: false, setting: false }}
      pagination={{ defaultPageSize: 10, showSizeChanger: false, showTotal: (total) => `共 ${total} 条` }}
      tableLayout="fixed"
      expandable={rowDetails(transferDetails(kind))}
      locale={{ emptyText: kind === 'depositIn' ? '暂无入金申请' : '暂无出金申请' }}
      toolBarRender={() => [
        <Radio.Group key="status" optionType="button" value={status} onChange={(e) => setStatus(e.target.value)}>
          <Radio.Button value="">全部</Radio.Button>
          {Object.entries(statuses).map(([value, text]) => (
            <Radio.Button key={value} value={value}>
              {text}
            </Radio.Button>
          ))}
        </Radio.Group>,
        <Authorized key="apply" action="add">
          <Button type="primary" icon={<PlusOutlined />} onClick={onApply}>
            {kind === 'depositIn' ? '登记入金' : '申请出金'}
          </Button>
        </Authorized>,
      ]}
      request={async ({ current = 1, pageSize = 10, status: filter }) => {
        const page = await listOwnTransfers(kind, { pageNo: current, pageSize, status: filter || undefined });
        return { data: page.records, total: page.total, success: true };
      }}
    />
  );
}
