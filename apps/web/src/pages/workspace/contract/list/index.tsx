import { useRef, useState } from 'react';
import { DownloadOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { Button, Radio, Space } from 'antd';
import { Link, useNavigate } from 'react-router';
import { CONTRACT_KINDS, CONTRACT_STATUS, formatPrice, formatTons, type ContractStatus } from '@coalx/shared';
import { useSession } from '@/app/session';
import Authorized from '@/components/Authorized';
import Money from '@/components/Money';
import { counterpartySearchColumn, partyColumns } from '@/components/PartyColumn';
import { rowDetails } from '@/components/RowDetails';
import { ContractStatusTag, DeadlineCountdown } from '@/components/contract/ContractParts';
import '@/components/contract/contract.css';
import SignContractModal from '@/components/contract/SignContractModal';
import { useExcelExport } from '@/hooks/useExcelExport';
import { downloadWithToken } from '@/lib/download';
import { canSign } from '@/lib/contract';
import { cleanParams, enumOf, WS_PAGINATION } from '@/lib/pro-table';
import LinkFilterNotice from '@/components/LinkFilterNotice';
import { useLinkFilters } from '@/hooks/useLinkFilters';
import { CONTRACT_EXPORT_PATH, listContracts, type ContractFilters, type ContractSummary } from '@/services/contract';

type Quick = 'all' | 'overdue';

/**
 * 合同列表: the enterprise's contracts (the trading centre: all of them), searchable by number, state and
 * counterparty, with the signing deadline ticking down and 签署 right in the row when my side may sign.
 */
export default function ContractListPage() {
  const { userInfo } = useSession();
  const isOperator = userInfo?.role?.code === 'operator';
  const navigate = useNavigate();
  const actionRef = useRef<ActionType>(undefined);
  const filters = useRef<ContractFilters>({});
  // a 待办 opens the list filtered (逾期未签合同 ?status=overdue, 待审核纸质合同 ?paper=submitted)
  const link = useLinkFilters(['status', 'paper'] as const);
  const [quick, setQuick] = useState<Quick>(link.filters.status === 'overdue' ? 'overdue' : 'all');
  const [signing, setSigning] = useState<ContractSummary | null>(null);
  const { exporting, exportExcel } = useExcelExport(() => {
    const { contractNo, status, counterparty } = filters.current;
    return downloadWithToken(CONTRACT_EXPORT_PATH, { contractNo, status, counterparty }, '合同列表.xlsx');
  }, '当前查询没有可导出的合同');

  const columns: ProColumns<ContractSummary>[] = [
    {
      title: '合同编号',
      dataIndex: 'contractNo',
      width: 150,
      fieldProps: { placeholder: '请输入合同编号' },
      render: (_, r) => (
        <Link to={`/contract/info?id=${r.id}`} className="coalx-num">
          {r.contractNo}
        </Link>
      ),
    },
    counterpartySearchColumn(isOperator),
    ...partyColumns<ContractSummary>({ isOperator, side: (r) => r.mySide, title: '对方企业', dataIndex: 'counterpartyName', width: 205 }),
    { title: '产品', dataIndex: 'productName', width: isOperator ? 100 : 120, search: false, ellipsis: true },
    { title: '数量 (吨)', dataIndex: 'quantity', width: 105, align: 'right', search: false, render: (_, r) => <span className="coalx-num">{formatTons(r.quantity, false)}</span> },
    { title: '金额 (¥)', dataIndex: 'amount', width: 140, align: 'right', search: false, render: (_, r) => <Money fen={r.amount} strong /> },
    {
      title: '状态',
      dataIndex: 'status',
      width: 90,
      valueType: 'select',
      valueEnum: enumOf(CONTRACT_STATUS),
      fieldProps: { placeholder: '全部状态', allowClear: true },
      render: (_, r) => <ContractStatusTag status={r.status} />,
    },
    { title: '签署截止', dataIndex: 'signDeadline', width: 125, search: false, render: (_, r) => <DeadlineCountdown deadline={r.signDeadline} status={r.status} /> },
    {
      title: '操作',
      valueType: 'option',
      width: isOperator ? 60 : 110,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => navigate(`/contract/info?id=${r.id}`)}>
            查看
          </Button>
          {canSign(r) ? (
            <Button type="link" size="small" onClick={() => setSigning(r)}>
              签署
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <>
      <LinkFilterNotice
        label={link.filters.paper === 'submitted' ? '纸质合同待审核' : link.filters.status ? `合同状态为「${(CONTRACT_STATUS as Record<string, string>)[link.filters.status] ?? link.filters.status}」` : null}
        onClear={() => {
          link.clear();
          setQuick('all');
        }}
      />
      <ProTable<ContractSummary>
        rowKey="id"
        headerTitle={isOperator ? '合同列表（全部合同）' : '合同列表'}
        actionRef={actionRef}
        columns={columns}
        cardBordered
        tableLayout="fixed"
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        params={{ quick, ...link.filters }}
        expandable={rowDetails<ContractSummary>((r) => [
          { label: '成交编号', value: r.dealNo },
          { label: '交易编号', value: r.tradeNo },
          { label: '合同类型', value: (CONTRACT_KINDS as Record<string, string>)[r.kind] ?? r.kind },
          { label: '单价', value: formatPrice(r.price) },
          { label: '生成时间', value: r.createdAt },
          { label: '签署截止', value: r.signDeadline + (r.extended ? '（已延期）' : '') },
          { label: '卖方签订时间', value: r.sellerSignedAt ?? '未签署' },
          { label: '买方签订时间', value: r.buyerSignedAt ?? '未签署' },
          { label: '纸质合同', value: r.uploadPending ? '待交易中心审核' : '-' },
        ])}
        locale={{ emptyText: quick === 'overdue' ? '没有逾期未签的合同' : '暂无合同' }}
        toolBarRender={() => [
          isOperator ? (
            <Radio.Group key="quick" optionType="button" value={quick} onChange={(e) => {
              setQuick(e.target.value as Quick);
              if (e.target.value === 'all') link.clear();
            }}>
              <Radio.Button value="all">全部合同</Radio.Button>
              <Radio.Button value="overdue">逾期未签</Radio.Button>
            </Radio.Group>
          ) : null,
          <Authorized key="export" action="export">
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportExcel()}>
              导出
            </Button>
          </Authorized>,
        ]}
        request={async (p) => {
          const query = cleanParams(p) as ContractFilters & { quick?: Quick };
          const { quick: chosen, ...rest } = query;
          // 逾期未签 is a state: the quick filter wins over the state picked in the form
          filters.current = { ...rest, status: chosen === 'overdue' ? 'overdue' : (rest.status as ContractStatus | undefined) };
          const page = await listContracts({ ...filters.current, pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <SignContractModal contract={signing} onClose={() => setSigning(null)} onSigned={() => actionRef.current?.reload()} />
    </>
  );
}
