import { useState } from 'react';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Button, Tooltip, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SignedDocument } from '@coalx/shared';
import { downloadSignedDocument, listSignedDocuments, SIGNED_DOCUMENTS_QUERY_KEY } from '@/services/sign';

const columns: ProColumns<SignedDocument>[] = [
  { title: '文件名称', dataIndex: 'fileName', ellipsis: true },
  { title: '签章序号', dataIndex: 'signatureIndex', width: 90, align: 'center', render: (_, r) => `第 ${r.signatureIndex} 个` },
  { title: '签署人', dataIndex: 'signerName', width: 140, render: (_, r) => `${r.signerName}（${r.signerUsername}）` },
  { title: '签章事由', dataIndex: 'reason', width: 140, ellipsis: true },
  {
    title: '证书序列号',
    dataIndex: 'certificateSerial',
    width: 150,
    render: (_, r) => (
      <Tooltip title={r.certificateSerial}>
        <Typography.Text className="coalx-ukey-mono">{r.certificateSerial.slice(0, 12)}…</Typography.Text>
      </Tooltip>
    ),
  },
  { title: '签署时间', dataIndex: 'signedAt', width: 170 },
  {
    title: '操作',
    valueType: 'option',
    width: 100,
    render: (_, r) => [
      <Button key="download" type="link" size="small" icon={<DownloadOutlined />} onClick={() => void downloadSignedDocument(r).catch(() => undefined)}>
        下载
      </Button>,
    ],
  },
];

/** 签章记录: what the enterprise signed, by whom and when, newest first. */
export default function SignedTable() {
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const queryClient = useQueryClient();
  const documents = useQuery({
    queryKey: [...SIGNED_DOCUMENTS_QUERY_KEY, page.current, page.pageSize],
    queryFn: () => listSignedDocuments(page.current, page.pageSize),
  });
  return (
    <ProTable<SignedDocument>
      headerTitle="签章记录"
      rowKey="id"
      search={false}
      columns={columns}
      loading={documents.isLoading}
      dataSource={documents.data?.records ?? []}
      options={{ reload: () => void queryClient.invalidateQueries({ queryKey: SIGNED_DOCUMENTS_QUERY_KEY }), density: false, setting: false }}
      pagination={{
        current: page.current,
        pageSize: page.pageSize,
        total: documents.data?.total ?? 0,
        showTotal: (total) => `共 ${total} 条`,
        onChange: (current, pageSize) => setPage({ current, pageSize }),
      }}
      locale={{ emptyText: '还没有签章记录' }}
    />
  );
}
