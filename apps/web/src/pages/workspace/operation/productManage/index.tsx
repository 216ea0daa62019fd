import { useRef, useState } from 'react';
import { PlusOutlined } from '@ant-design/icons';
import { ProFormDigit, ProFormSwitch, ProFormText, ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import GuardedModalForm from '@/components/GuardedModalForm';
import { Badge, Button, Col, Row, message } from 'antd';
import { QUALITY_FIELDS } from '@coalx/shared';
import { errorMessage } from '@/app/request';
import Authorized from '@/components/Authorized';
import ExportExcelButton from '@/components/ExportExcel';
import { qualityBrief } from '@/lib/quality';
import { listManagedProducts, saveProduct, type Product, type ProductSave } from '@/services/listing';
import { WS_PAGINATION } from '@/lib/pro-table';

type QualityKey = keyof typeof QUALITY_FIELDS;

/** 产品维护 (operator): the coal product catalogue with default quality indicators. */
export default function ProductManagePage() {
  const action = useRef<ActionType>(null);
  const [editing, setEditing] = useState<Product | null>(null);
  const [open, setOpen] = useState(false);
  const all = useRef<Product[]>([]);

  const columns: ProColumns<Product>[] = [
    { title: '产品编码', dataIndex: 'stockCode', width: 130 },
    { title: '产品名称', dataIndex: 'stockName', width: 160 },
    { title: '产品类别', dataIndex: 'category', width: 120 },
    { title: '默认质量指标', dataIndex: 'quality', search: false, render: (_, r) => qualityBrief(r.quality) },
    {
      title: '状态',
      dataIndex: 'enabled',
      width: 100,
      valueType: 'select',
      valueEnum: { true: { text: '启用' }, false: { text: '停用' } },
      render: (_, r) => <Badge status={r.enabled ? 'success' : 'default'} text={r.enabled ? '启用' : '停用'} />,
    },
    {
      title: '操作',
      valueType: 'option',
      width: 90,
      render: (_, r) => (
        <Authorized action="edit">
          <Button
            type="link"
            size="small"
            onClick={() => {
              setEditing(r);
              setOpen(true);
            }}
          >
            编辑
          </Button>
        </Authorized>
      ),
    },
  ];

  return (
    <>
      <ProTable<Product>
        headerTitle="产品维护"
        actionRef={action}
        rowKey="stockCode"
        columns={columns}
        search={{ labelWidth: 'auto' }}
        pagination={WS_PAGINATION}
        options={{ density: false, setting: false, reload: true }}
        toolBarRender={() => [
          <Authorized key="add" action="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setEditing(null);
                setOpen(true);
              }}
            >
              新增产品
            </Button>
          </Authorized>,
          <ExportExcelButton<Product>
            key="export"
            fileName="产品目录"
            columns={[
              { title: '产品编码', value: (r) => r.stockCode },
              { title: '产品名称', value: (r) => r.stockName, width: 16 },
              { title: '产品类别', value: (r) => r.category },
              ...(Object.keys(QUALITY_FIELDS) as QualityKey[]).map((k) => ({
                title: `${QUALITY_FIELDS[k].label}(${QUALITY_FIELDS[k].unit})`,
                value: (r: Product) => r.quality?.[k] ?? '',
              })),
              { title: '状态', value: (r) => (r.enabled ? '启用' : '停用') },
            ]}
            fetchPage={async () => ({ records: all.current, total: all.current.length, current: 1, size: all.current.length })}
          />,
        ]}
        request={async (p) => {
          const rows = await listManagedProducts();
          const match = (v: string, q: unknown) => !q || v.toLowerCase().includes(String(q).trim().toLowerCase());
          const filtered = rows.filter(
            (r) =>
              match(r.stockCode, p.stockCode) &&
              match(r.stockName, p.stockName) &&
              match(r.category, p.category) &&
              (p.enabled === undefined || String(r.enabled) === String(p.enabled)),
          );
          all.current = filtered;
          const start = ((p.current ?? 1) - 1) * (p.pageSize ?? 10);
          return { data: filtered.slice(start, start + (p.pageSize ?? 10)), total: filtered.length, success: true };
        }}
      />
      <GuardedModalForm<ProductSave>
        key={editing?.stockCode ?? 'new'}
        title={editing ? `编辑产品 ${editing.stockCode}` : '新增产品'}
        open={open}
        onOpenChange={setOpen}
        width={720}
        modalProps={{ destroyOnHidden: true }}
        initialValues={editing ?? { enabled: true, quality: {} }}
        onFinish={async (values) => {
          try {
            const quality = Object.fromEntries(Object.entries(values.quality ?? {}).filter(([, v]) => v !== null && v !== undefined)) as ProductSave['quality'];
            await saveProduct(editing ? 'edit' : 'add', { ...values, stockCode: editing?.stockCode ?? values.stockCode, quality, enabled: values.enabled ?? true });
            message.success(editing ? '产品已保存' : '产品已新增');
            action.current?.reload();
            return true;
          } catch (error) {
            message.error(errorMessage(error, '保存失败'));
            return false;
          }
        }}
      >
        <Row gutter={16}>
          <Col span={8}>
            <ProFormText
              name="stockCode"
              label="产品编码"
              disabled={Boolean(editing)}
              rules={[{ required: true, message: '请输入产品编码' }, { pattern: /^[A-Za-z0-9_-]{2,32}$/, message: '产品编码为 2-32 位字母、数字、下划线或连字符' }]}
            />
          </Col>
          <Col span={8}>
            <ProFormText name="stockName" label="产品名称" rules={[{ required: true, message: '请输入产品名称' }, { max: 40, message: '产品名称不超过 40 字' }]} />
          </Col>
          <Col span={8}>
            <ProFormText name="category" label="产品类别" placeholder="动力煤 / 无烟煤 / 焦煤" rules={[{ required: true, message: '请输入产品类别' }, { max: 20, message: '产品类别不超过 20 字' }]} />
          </Col>
          {(Object.keys(QUALITY_FIELDS) as QualityKey[]).map((k) => {
            const integer = k === 'qnet' || k === 'ashFusion';
            const [min, max] = k === 'qnet' ? [1000, 8000] : k === 'ashFusion' ? [900, 1700] : [0, 100];
            return (
              <Col span={8} key={k}>
                <ProFormDigit name={['quality', k]} label={QUALITY_FIELDS[k].label} min={min} max={max} fieldProps={{ precision: integer ? 0 : 2, addonAfter: QUALITY_FIELDS[k].unit }} />
              </Col>
            );
          })}
          <Col span={8}>
            <ProFormSwitch name="enabled" label="启用" />
          </Col>
        </Row>
      </GuardedModalForm>
    </>
  );
}
