import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { Alert, Tag } from 'antd';
import { SMS_SCENES } from '@coalx/shared';
import { listSmsOutbox, type SmsOutboxRecord } from '@/services/enterprise';

/** 短信发件箱 (operator): what the built-in SMS provider "sent", while the platform has no SMS contract. */
export default function SmsOutboxPage() {
  const columns: ProColumns<SmsOutboxRecord>[] = [
    { title: '手机号码', dataIndex: 'mobile', width: 140, fieldProps: { maxLength: 11, placeholder: '手机号码（可输入前几位）' } },
    { title: '场景', dataIndex: 'scene', search: false, width: 100, render: (_, r) => <Tag>{SMS_SCENES[r.scene as keyof typeof SMS_SCENES] ?? r.scene}</Tag> },
    { title: '短信内容', dataIndex: 'content', search: false },
    { title: '通道', dataIndex: 'provider', search: false, width: 90, render: (_, r) => (r.provider === 'outbox' ? '内置发件箱' : r.provider) },
    { title: '发送时间', dataIndex: 'createdAt', search: false, width: 170 },
  ];
  return (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message="平台尚未接入短信服务商时，验证码短信写入此发件箱；请核实来电人身份后再告知验证码。"
      />
      <ProTable<SmsOutboxRecord>
        rowKey="id"
        columns={columns}
        search={{ labelWidth: 'auto' }}
        pagination={{ defaultPageSize: 10, showTotal: (total) => `共 ${total} 条` }}
        request={async ({ current = 1, pageSize = 10, mobile }) => {
          const page = await listSmsOutbox({ pageNo: current, pageSize, mobile: mobile || undefined });
          return { data: page.records, total: page.total, success: true };
        }}
        locale={{ emptyText: '暂无数据' }}
      />
    </>
  );
}
