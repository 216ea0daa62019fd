import { useState } from 'react';
import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { ProFormDatePicker, ProFormDateRangePicker, ProFormRadio, ProFormText, ProTable, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Popconfirm, Segmented, Space, Tag, Typography, message } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { HolidayInputSchema, type Holiday, type HolidayInput } from '@coalx/shared';
import GuardedModalForm from '@/components/GuardedModalForm';
import { errorMessage } from '@/app/request';
import { addHoliday, addHolidays, deleteHoliday, holidaysQueryKey, listHolidays } from '@/services/parameter';
import { zodRule } from '@/lib/zod-rule';

const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
const KIND_OPTIONS = [
  { label: '放假', value: false },
  { label: '调休上班', value: true },
];
/** A bulk add covers at most a long holiday and its weekends, as the server takes 120 days at most. */
const MAX_RANGE_DAYS = 120;

interface OneForm {
  day: Dayjs;
  name: string;
  workday: boolean;
}
interface RangeForm {
  range: [Dayjs, Dayjs];
  name: string;
  workday: boolean;
}

/**
 * 节假日 (sys_holiday): the days off and the weekend days worked instead (调休) that working-day deadlines count
 * with (a contract's signing deadline, for one). Saturdays and Sundays not listed are off anyway.
 */
export default function HolidayPanel() {
  const queryClient = useQueryClient();
  const thisYear = dayjs().year();
  const [year, setYear] = useState(thisYear);
  const holidays = useQuery({ queryKey: holidaysQueryKey(year), queryFn: () => listHolidays(year) });
  const [adding, setAdding] = useState<'one' | 'range' | null>(null);
  const [oneForm] = Form.useForm<OneForm>();
  const [rangeForm] = Form.useForm<RangeForm>();

  const run = async (action: () => Promise<string>) => {
    try {
      message.success(await action());
      await queryClient.invalidateQueries({ queryKey: ['system', 'holidays'] });
      return true;
    } catch (error) {
      message.error(errorMessage(error));
      return false;
    }
  };

  const saveOne = async (values: OneForm) => {
    const saved = await run(() => addHoliday({ day: values.day.format('YYYY-MM-DD'), name: values.name.trim(), workday: values.workday }));
    if (saved) setAdding(null);
    return saved;
  };

  const saveRange = async (values: RangeForm) => {
    const [start, end] = values.range;
    const items: HolidayInput[] = [];
    for (let d = start.startOf('day'); !d.isAfter(end, 'day'); d = d.add(1, 'day')) {
      items.push({ day: d.format('YYYY-MM-DD'), name: values.name.trim(), workday: values.workday });
    }
    const saved = await run(() => addHolidays(items));
    if (saved) setAdding(null);
    return saved;
  };

  const offDays = holidays.data?.filter((h) => !h.workday).length ?? 0;
  const workdays = holidays.data?.filter((h) => h.workday).length ?? 0;

  const columns: ProColumns<Holiday>[] = [
    { title: '日期', dataIndex: 'day', width: 130 },
    { title: '星期', key: 'weekday', width: 80, render: (_, h) => WEEKDAYS[dayjs(h.day).day()] },
    { title: '名称', dataIndex: 'name', width: 200 },
    {
      title: '类型',
      dataIndex: 'workday',
      width: 120,
      render: (_, h) => (h.workday ? <Tag color="orange">调休上班</Tag> : <Tag color="red">放假</Tag>),
    },
    {
      title: '操作',
      valueType: 'option',
      width: 80,
      render: (_, h) => (
        <Popconfirm title={`删除 ${h.day}（${h.name}）`} okText="删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => run(() => deleteHoliday(h.day))}>
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      ),
    },
  ];

  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Space size={12}>
          <Segmented<number>
            value={year}
            onChange={setYear}
            options={[thisYear - 1, thisYear, thisYear + 1, thisYear + 2].map((y) => ({ label: `${y} 年`, value: y }))}
          />
          <Typography.Text type="secondary">
            放假 {offDays} 天，调休上班 {workdays} 天
          </Typography.Text>
        </Space>
        <Space>
          <Button icon={<UnorderedListOutlined />} onClick={() => setAdding('range')}>
            批量添加
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding('one')}>
            添加
          </Button>
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">
        按工作日计算的期限（如合同签署期限）跳过列出的放假日，调休上班日计为工作日；未列出的周六、周日不计。每年国务院公布放假安排后请在此录入。
      </Typography.Paragraph>
      {holidays.isError ? <Alert type="error" showIcon message={errorMessage(holidays.error, '节假日加载失败')} /> : null}
      <ProTable<Holiday>
        rowKey="day"
        size="small"
        loading={holidays.isLoading}
        columns={columns}
        dataSource={holidays.data ?? []}
        search={false}
        options={false}
        pagination={false}
        toolBarRender={false}
        scroll={{ y: 'calc(100vh - 400px)' }}
        locale={{ emptyText: `${year} 年尚未录入节假日` }}
      />

      <GuardedModalForm<OneForm>
        title="添加节假日或调休上班日"
        open={adding === 'one'}
        form={oneForm}
        width={440}
        layout="horizontal"
        labelCol={{ span: 5 }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        onOpenChange={(open) => !open && setAdding(null)}
        initialValues={{ workday: false }}
        submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
        onFinish={saveOne}
      >
        <ProFormDatePicker name="day" label="日期" rules={[{ required: true, message: '请选择日期' }]} fieldProps={{ style: { width: '100%' } }} />
        <ProFormText name="name" label="名称" placeholder="如：春节、国庆节调休上班" rules={[zodRule(HolidayInputSchema.shape.name)]} />
        <ProFormRadio.Group name="workday" label="类型" options={KIND_OPTIONS} />
        <Typography.Text type="secondary">已录入的日期再次保存时，按新填写的名称和类型更新。</Typography.Text>
      </GuardedModalForm>

      <GuardedModalForm<RangeForm>
        title="批量添加（连续日期）"
        open={adding === 'range'}
        form={rangeForm}
        width={480}
        layout="horizontal"
        labelCol={{ span: 5 }}
        modalProps={{ destroyOnHidden: true, maskClosable: false }}
        onOpenChange={(open) => !open && setAdding(null)}
        initialValues={{ workday: false }}
        submitter={{ searchConfig: { submitText: '保存', resetText: '取消' } }}
        onFinish={saveRange}
      >
        <ProFormDateRangePicker
          name="range"
          label="日期范围"
          fieldProps={{ style: { width: '100%' } }}
          rules={[
            { required: true, message: '请选择日期范围' },
            {
              validator: async (_: unknown, value: [Dayjs, Dayjs] | undefined) => {
                if (value && value[1].diff(value[0], 'day') + 1 > MAX_RANGE_DAYS) throw new Error(`一次最多添加 ${MAX_RANGE_DAYS} 天`);
              },
            },
          ]}
        />
        <ProFormText name="name" label="名称" placeholder="如：春节" rules={[zodRule(HolidayInputSchema.shape.name)]} />
        <ProFormRadio.Group name="workday" label="类型" options={KIND_OPTIONS} />
        <Typography.Text type="secondary">范围内每一天都按所选类型录入，调休上班日请单独添加。</Typography.Text>
      </GuardedModalForm>
    </>
  );
}
