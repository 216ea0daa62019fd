import { useState } from 'react';
import { ProFormDigit, ProTable, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Tag, Tooltip, Typography, message } from 'antd';
import { formatParameterValue, parameterValueProblem, type SystemParameter, type SystemParameterCode } from '@coalx/shared';
import GuardedModalForm from '@/components/GuardedModalForm';
import { errorMessage } from '@/app/request';
import { listParameters, PARAMETERS_QUERY_KEY, updateParameter } from '@/services/parameter';

const show = (p: SystemParameter, value: number) => formatParameterValue(p.code as SystemParameterCode, value);
/** Money parameters are stored in fen and typed in 元. */
const toInput = (p: SystemParameter, value: number) => (p.kind === 'fen' ? value / 100 : value);
const fromInput = (p: SystemParameter, value: number) => (p.kind === 'fen' ? Math.round(value * 100) : value);

/** The typed parameters with their defaults and ranges; the admin changes one at a time. */
export default function ParameterTable() {
  const queryClient = useQueryClient();
  const parameters = useQuery({ queryKey: PARAMETERS_QUERY_KEY, queryFn: listParameters });
  const [editing, setEditing] = useState<SystemParameter | null>(null);
  const [form] = Form.useForm<{ value: number }>();

  const save = async ({ value }: { value: number }) => {
    if (!editing) return false;
    try {
      const { list, message: text } = await updateParameter(editing.code as SystemParameterCode, fromInput(editing, value));
      queryClient.setQueryData(PARAMETERS_QUERY_KEY, list);
      message.success(text);
      setEditing(null);
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    }
  };

  const columns: ProColumns<SystemParameter>[] = [
    { title: '分类', dataIndex: 'group', width: 80, render: (_, p) => <Tag>{p.group}</Tag> },
    {
      title: '参数',
      dataIndex: 'label',
      render: (_, p) => (
        <div style={{ minWidth: 0 }}>
          <Tooltip title={p.code}>
            <span>{p.label}</span>
          </Tooltip>
          <Typography.Text type="secondary" ellipsis={{ tooltip: p.remark }} style={{ display: 'block', fontSize: 12 }}>
            {p.remark}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '当前值',
      dataIndex: 'value',
      width: 150,
      align: 'right',
      render: (_, p) => (
        <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
          {show(p, p.value)}
        </Typography.Text>
      ),
    },
    {
      title: '来源',
      dataIndex: 'customized',
      width: 80,
      render: (_, p) => (p.customized ? <Tag color="blue">已修改</Tag> : <Tag>默认值</Tag>),
    },
    { title: '默认值', dataIndex: 'default', width: 120, align: 'right', render: (_, p) => <span style={{ whiteSpace: 'nowrap' }}>{show(p, p.default)}</span> },
    {
      title: '允许范围',
      key: 'range',
      width: 200,
      render: (_, p) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          {show(p, p.min)} ~ {show(p, p.max)}
        </span>
      ),
    },
    { title: '修改时间', dataIndex: 'updatedAt', width: 160, render: (_, p) => p.updatedAt ?? '—' },
    {
      title: '操作',
      valueType: 'option',
      width: 70,
      render: (_, p) => (
        <Button type="link" size="small" onClick={() => setEditing(p)} aria-label={`修改${p.label}`}>
          修改
        </Button>
      ),
    },
  ];

  if (parameters.isError) return <Alert type="error" showIcon message={errorMessage(parameters.error, '系统参数加载失败')} />;

  return (
    <>
      <Typography.Paragraph type="secondary">
        修改后只影响此后新产生的业务（如新成交的合同），已生成的合同、订单保持原有条款。
      </Typography.Paragraph>
      <ProTable<SystemParameter>
        rowKey="code"
        size="middle"
        // fixed: the widths hold and the remark, cut with an ellipsis, takes what is left
        tableLayout="fixed"
        loading={parameters.isLoading}
        columns={columns}
        dataSource={parameters.data ?? []}
        search={false}
        options={false}
        pagination={false}
        toolBarRender={false}
      />
      {editing ? (
        <GuardedModalForm<{ value: number }>
          key={editing.code}
          title={`修改${editing.label}`}
          open
          form={form}
          width={460}
          layout="vertical"
          modalProps={{ destroyOnHidden: true, maskClosable: false }}
          onOpenChange={(open) => !open && setEditing(null)}
          initialValues={{ value: toInput(editing, editing.value) }}
          submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
          onFinish={save}
        >
          <Typography.Paragraph type="secondary">{editing.remark}</Typography.Paragraph>
          <ProFormDigit
            name="value"
            label={`${editing.label}（${editing.unit}）`}
            fieldProps={{ precision: editing.decimals, addonAfter: editing.unit, style: { width: '100%' } }}
            extra={`允许范围 ${show(editing, editing.min)} ~ ${show(editing, editing.max)}，默认 ${show(editing, editing.default)}`}
            rules={[
              { required: true, message: '请输入参数值' },
              {
                validator: async (_: unknown, value: number | null | undefined) => {
                  if (value === null || value === undefined) return;
                  const problem = parameterValueProblem(editing.code as SystemParameterCode, fromInput(editing, value));
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          />
        </GuardedModalForm>
      ) : null}
    </>
  );
}
