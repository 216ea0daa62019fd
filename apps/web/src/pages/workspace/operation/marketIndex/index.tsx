import { useEffect, useRef, useState } from 'react';
import { ProCard, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Form, Input, InputNumber, Popconfirm, Space, Typography, message } from 'antd';
import { Link } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { fenToYuanText, formatPrice, formatTons, MAX_PRICE_FEN, yuanTextToFen } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import { yuanRule } from '@/components/TradeForm/rules';
import ExportExcelButton from '@/components/ExportExcel';
import { indexRise } from '@/lib/home';
import { marketIndexHistory, marketIndexInfo, marketIndexProposal, publishMarketIndex, type MarketIndex } from '@/services/content';
import { WS_PAGINATION } from '@/lib/pro-table';
import { nextTerm } from './term';

interface PublishForm {
  currentYear: number;
  currentTerm: number;
  quoteDate: Dayjs;
  price: string;
}

/** 指数发布 (operator): the published terms, and the next term's value proposed from the platform's own deals. */
export default function MarketIndexManagePage() {
  const client = useQueryClient();
  const table = useRef<ActionType>(null);
  const [form] = Form.useForm<PublishForm>();
  const latest = useQuery({ queryKey: ['marketIndex', 'info'], queryFn: marketIndexInfo });
  const year = Form.useWatch('currentYear', form);
  const term = Form.useWatch('currentTerm', form);
  const [asked, setAsked] = useState<{ year: number; term: number } | null>(null);
  const proposal = useQuery({
    queryKey: ['marketIndex', 'proposal', asked?.year, asked?.term],
    queryFn: () => marketIndexProposal(asked!.year, asked!.term),
    enabled: asked !== null,
  });
  const [publishing, setPublishing] = useState(false);
  // the publish confirmation opens only on a valid form
  const [confirming, setConfirming] = useState(false);

  // the form starts at the term after the latest one
  useEffect(() => {
    if (!latest.isSuccess) return;
    const next = nextTerm(latest.data);
    form.setFieldsValue({ currentYear: next.year, currentTerm: next.term, quoteDate: dayjs() });
    setAsked(next);
  }, [latest.isSuccess, latest.data, form]);

  useEffect(() => {
    if (proposal.data?.price != null && !form.isFieldTouched('price')) form.setFieldValue('price', fenToYuanText(proposal.data.price));
  }, [proposal.data, form]);

  const askToPublish = async () => {
    try {
      await form.validateFields();
      setConfirming(true);
    } catch {
      // the fields show their own messages
    }
  };

  const publish = async () => {
    setConfirming(false);
    const v = await form.validateFields();
    const price = yuanTextToFen(v.price);
    if (price === null || price <= 0) {
      message.error('请输入大于 0 的指数价格（最多两位小数）');
      return;
    }
    setPublishing(true);
    try {
      const saved = await publishMarketIndex({ currentYear: v.currentYear, currentTerm: v.currentTerm, quoteDate: v.quoteDate.format('YYYY-MM-DD'), price });
      message.success(`已发布 ${saved.currentYear} 年第 ${saved.currentTerm} 期指数`);
      form.resetFields(['price']);
      await client.invalidateQueries({ queryKey: ['marketIndex'] });
      table.current?.reload();
    } catch (error) {
      message.error(errorMessage(error));
    } finally {
      setPublishing(false);
    }
  };

  const p = proposal.data;
  const columns: ProColumns<MarketIndex>[] = [
    { title: '总期数', dataIndex: 'totalTerm', width: 80 },
    { title: '年份', dataIndex: 'currentYear', width: 80 },
    { title: '期数', dataIndex: 'currentTerm', width: 80, render: (_, r) => `第${r.currentTerm}期` },
    { title: '报价日期', dataIndex: 'quoteDate', width: 120 },
    { title: '指数价格', dataIndex: 'price', align: 'right', width: 150, render: (_, r) => formatPrice(r.price) },
    {
      title: '涨跌',
      dataIndex: 'rise',
      align: 'right',
      width: 120,
      render: (_, r) => {
        const rise = indexRise(r.rise);
        return <span style={{ color: rise.tone === 'up' ? '#e5383b' : rise.tone === 'down' ? '#10a36b' : undefined }}>{rise.text}</span>;
      },
    },
    { title: '样本成交笔数', dataIndex: 'dealCount', align: 'right', width: 120 },
    { title: '样本成交量', dataIndex: 'dealTonnage', align: 'right', width: 150, render: (_, r) => formatTons(r.dealTonnage) },
  ];

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <ProCard title="发布下一期指数" bordered headerBordered>
        <Form<PublishForm> form={form} layout="inline" style={{ rowGap: 12 }}>
          <Form.Item name="currentYear" label="年份" rules={[{ required: true, message: '请输入年份' }]}>
            <InputNumber min={2000} max={2100} precision={0} style={{ width: 100 }} />
          </Form.Item>
          <Form.Item name="currentTerm" label="期数" rules={[{ required: true, message: '请输入期数' }]}>
            <InputNumber min={1} max={53} precision={0} style={{ width: 90 }} addonAfter="期" />
          </Form.Item>
          <Form.Item>
            <Button onClick={() => year && term && setAsked({ year, term })} loading={proposal.isFetching}>
              计算建议值
            </Button>
          </Form.Item>
          <Form.Item name="quoteDate" label="报价日期" rules={[{ required: true, message: '请选择报价日期' }]}>
            <DatePicker allowClear={false} />
          </Form.Item>
          <Form.Item
            name="price"
            label="指数价格"
            rules={[
              { required: true, message: '请输入指数价格' },
              yuanRule({ positive: true, max: MAX_PRICE_FEN }),
            ]}
          >
            <Input style={{ width: 160 }} suffix="元/吨" placeholder="如 793.20" />
          </Form.Item>
          <Form.Item>
            <Authorized action="add">
              <Popconfirm title="发布后首页立即显示该期指数" okText="发布" cancelText="取消" open={confirming} onOpenChange={(open) => !open && setConfirming(false)} onConfirm={publish}>
                <Button type="primary" loading={publishing} onClick={() => void askToPublish()}>
                  发布
                </Button>
              </Popconfirm>
            </Authorized>
          </Form.Item>
        </Form>
        <div style={{ marginTop: 16 }}>
          {proposal.isError ? (
            <Alert type="error" showIcon message={errorMessage(proposal.error)} />
          ) : p ? (
            <Descriptions size="small" bordered column={3} title={`${p.currentYear} 年第 ${p.currentTerm} 期建议值（本平台 5500 大卡动力煤成交，剔除已取消、关联交易与偏离中位数 20% 以上的成交后按吨数加权平均）`}>
              <Descriptions.Item label="统计区间">
                {p.from} 至 {p.to}
              </Descriptions.Item>
              <Descriptions.Item label="样本成交笔数">{p.dealCount} 笔</Descriptions.Item>
              <Descriptions.Item label="样本成交量">{formatTons(p.dealTonnage)}</Descriptions.Item>
              <Descriptions.Item label="建议指数">{p.price === null ? <span style={{ color: '#8c8c8c' }}>本期无成交，请参考上期价格人工填写</span> : <b>{formatPrice(p.price)}</b>}</Descriptions.Item>
              <Descriptions.Item label="上期指数">{formatPrice(p.previousPrice)}</Descriptions.Item>
              <Descriptions.Item label="较上期">
                {p.price !== null && p.previousPrice !== null ? indexRise(p.price - p.previousPrice).text : '-'}
              </Descriptions.Item>
            </Descriptions>
          ) : null}
          {p && p.price !== null ? (
            <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
              本期有样本成交，发布价格须等于建议指数；样本与剔除原因随指数一并公开（
              <Link to="/marketIndex/method" target="_blank">
                指数编制方法
              </Link>
              ）。
            </Typography.Text>
          ) : null}
        </div>
      </ProCard>
      <ProTable<MarketIndex>
        headerTitle="已发布指数"
        actionRef={table}
        rowKey="totalTerm"
        columns={columns}
        search={false}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <ExportExcelButton<MarketIndex>
            key="export"
            fileName="动力煤价格指数"
            columns={[
              { title: '总期数', value: (r) => r.totalTerm },
              { title: '年份', value: (r) => r.currentYear },
              { title: '期数', value: (r) => r.currentTerm },
              { title: '报价日期', value: (r) => r.quoteDate, width: 14 },
              { title: '指数价格(元/吨)', value: (r) => formatPrice(r.price).replace(' 元/吨', ''), width: 16 },
              { title: '涨跌(元/吨)', value: (r) => indexRise(r.rise).text, width: 14 },
              { title: '样本成交笔数', value: (r) => r.dealCount },
              { title: '样本成交量', value: (r) => formatTons(r.dealTonnage), width: 18 },
            ]}
            fetchPage={async () => {
              const all = await marketIndexHistory(260);
              return { records: [...all].reverse(), total: all.length, current: 1, size: all.length };
            }}
          />,
        ]}
        request={async () => {
          const all = await marketIndexHistory(260);
          return { data: [...all].reverse(), total: all.length, success: true };
        }}
      />
    </Space>
  );
}
