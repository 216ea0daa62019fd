import { useRef, useState } from 'react';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Tag, Typography, message } from 'antd';
import { Link, useNavigate } from 'react-router';
import { formatTons } from '@coalx/shared';
import Money from '@/components/Money';
import { counterpartyColumn } from '@/components/PartyColumn';
import { ContractStatusTag, DeadlineCountdown, UploadStatusTag } from '@/components/contract/ContractParts';
import SignContractModal from '@/components/contract/SignContractModal';
import UploadPaperModal from '@/components/contract/UploadPaperModal';
import '@/components/contract/contract.css';
import { canSign } from '@/lib/contract';
import { WS_PAGINATION } from '@/lib/pro-table';
import { CONTRACT_KEYS, listContracts, listMyPaperCopies, openUploadFile, type ContractSummary, type MyPaperCopy } from '@/services/contract';

/** 我方提交的纸质合同: every paper copy my side sent, with its review state, newest first. */
function MyUploads() {
  return (
    <ProTable<MyPaperCopy>
      rowKey="id"
      headerTitle="我方提交的纸质合同"
      search={false}
      cardBordered
      tableLayout="fixed"
      pagination={WS_PAGINATION}
      options={{ density: false, setting: false, reload: true }}
      locale={{ emptyText: '暂无提交的纸质合同' }}
      params={{ kind: 'my-uploads' }}
      request={async (p) => {
        const page = await listMyPaperCopies({ pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
        return { data: page.records, total: page.total, success: true };
      }}
      columns={[
        { title: '合同编号', dataIndex: 'contractNo', width: 150, render: (_, u) => <Link to={`/contract/info?id=${u.contractId}`}>{u.contractNo}</Link> },
        { title: '对方企业', dataIndex: 'counterparty', width: 190, ellipsis: true },
        {
          title: '文件',
          dataIndex: 'fileName',
          ellipsis: true,
          render: (_, u) => (
            <Typography.Link onClick={() => openUploadFile(u.contractId, u.id).catch((e: Error) => message.error(e.message))}>{u.fileName}</Typography.Link>
          ),
        },
        { title: '提交人', dataIndex: 'submittedBy', width: 110 },
        { title: '提交时间', dataIndex: 'submittedAt', width: 170 },
        { title: '审核状态', dataIndex: 'status', width: 100, render: (_, u) => <UploadStatusTag status={u.status} /> },
        { title: '审核意见', dataIndex: 'reviewNote', width: 220, ellipsis: true, render: (_, u) => u.reviewNote || '-' },
      ]}
    />
  );
}

/**
 * 合同上传与签署: the contracts waiting for my side (to sign, or with my paper copy sent back), each with 签署 and
 * 上传纸质合同 right in the row, and below them the paper copies my side sent with their review state.
 */
export default function ContractSignPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>(undefined);
  const [signing, setSigning] = useState<ContractSummary | null>(null);
  const [uploading, setUploading] = useState<ContractSummary | null>(null);

  const [uploadsVersion, setUploadsVersion] = useState(0);
  const refresh = () => {
    actionRef.current?.reload();
    setUploadsVersion((v) => v + 1);
    void queryClient.invalidateQueries({ queryKey: CONTRACT_KEYS.all });
  };

  const columns: ProColumns<ContractSummary>[] = [
    { title: '合同编号', dataIndex: 'contractNo', width: 150, render: (_, r) => <Link to={`/contract/info?id=${r.id}`}>{r.contractNo}</Link> },
    counterpartyColumn<ContractSummary>({ side: (r) => r.mySide, title: '对方企业', width: 180 }),
    { title: '产品', dataIndex: 'productName', width: 110, ellipsis: true },
    { title: '数量 (吨)', dataIndex: 'quantity', width: 105, align: 'right', render: (_, r) => <span className="coalx-num">{formatTons(r.quantity, false)}</span> },
    { title: '金额 (¥)', dataIndex: 'amount', width: 140, align: 'right', render: (_, r) => <Money fen={r.amount} strong /> },
    {
      title: '状态',
      dataIndex: 'status',
      width: 110,
      render: (_, r) => (
        <Space size={4} direction="vertical">
          <ContractStatusTag status={r.status} />
          {r.uploadPending ? <Tag color="processing">纸质合同待审核</Tag> : null}
        </Space>
      ),
    },
    { title: '签署截止', dataIndex: 'signDeadline', width: 130, render: (_, r) => <DeadlineCountdown deadline={r.signDeadline} status={r.status} /> },
    {
      title: '操作',
      valueType: 'option',
      width: 160,
      render: (_, r) => (
        <Space size={0}>
          {canSign(r) ? (
            <Button type="link" size="small" onClick={() => setSigning(r)}>
              签署
            </Button>
          ) : null}
          {canSign(r) && !r.uploadPending ? (
            <Button type="link" size="small" onClick={() => setUploading(r)}>
              上传纸质合同
            </Button>
          ) : null}
          {!canSign(r) ? (
            <Button type="link" size="small" onClick={() => navigate(`/contract/info?id=${r.id}`)}>
              查看
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <div className="coalx-contract-sign-page">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message="成交后须在签署截止前完成签署：使用本机数字证书在线签署，或上传签字盖章的纸质合同由交易中心审核。双方签署后合同生效。"
      />
      <ProTable<ContractSummary>
        rowKey="id"
        headerTitle="待我方签署的合同"
        actionRef={actionRef}
        columns={columns}
        search={false}
        cardBordered
        tableLayout="fixed"
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        locale={{ emptyText: '没有待我方签署的合同' }}
        request={async (p) => {
          const page = await listContracts({ scope: 'mine', pageNo: p.current ?? 1, pageSize: p.pageSize ?? 10 });
          return { data: page.records, total: page.total, success: true };
        }}
      />
      <div style={{ height: 16 }} />
      <MyUploads key={uploadsVersion} />
      <SignContractModal contract={signing} onClose={() => setSigning(null)} onSigned={refresh} />
      <UploadPaperModal contract={uploading} onClose={() => setUploading(null)} onUploaded={refresh} />
    </div>
  );
}
