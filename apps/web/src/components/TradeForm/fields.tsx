import type { ReactNode } from 'react';
import { ProFormDateRangePicker, ProFormRadio, ProFormSelect, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Form, Row } from 'antd';
import type { Rule } from 'antd/es/form';
import { PRICE_TYPES, TRANSPORTS } from '@coalx/shared';
import QualityFields from '@/components/QualityFields';
import { listProducts } from '@/services/listing';
import DeliveryAreaCascader from './DeliveryAreaCascader';
import { DAY, beforeToday } from './dates';
import { areaRules } from './rules';

/** The field groups the listing and auction publishing forms share, each inside the form's ProForm. */

const options = (map: Record<string, string>) => Object.entries(map).map(([value, label]) => ({ value, label }));

/** 产品与质量指标: the product (choosing one fills in its typical quality), `children` beside it, the indicators. */
export function ProductQualityFields({ children }: { children?: ReactNode }) {
  const form = Form.useFormInstance();
  const products = useQuery({ queryKey: ['product', 'list'], queryFn: listProducts, staleTime: 60_000 });
  return (
    <>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <ProFormSelect
            name="stockCode"
            label="产品"
            placeholder="请选择产品"
            rules={[{ required: true, message: '请选择产品' }]}
            options={(products.data ?? []).map((p) => ({ label: `${p.stockName}（${p.category}）`, value: p.stockCode }))}
            fieldProps={{
              loading: products.isLoading,
              showSearch: true,
              onChange: (code: string) => {
                const product = products.data?.find((p) => p.stockCode === code);
                if (product) form.setFieldsValue({ quality: { ...product.quality } });
              },
            }}
          />
        </Col>
        {children}
      </Row>
      <QualityFields />
    </>
  );
}

/** 交收地区 (down to the city at least) and 交收地点, one row's worth of columns. */
export function DeliveryPlaceFields() {
  return (
    <>
      <Col xs={24} md={8}>
        <Form.Item name="area" label="交收地区" rules={areaRules}>
          <DeliveryAreaCascader />
        </Form.Item>
      </Col>
      <Col xs={24} md={16}>
        <ProFormText
          name="deliveryPlace"
          label="交收地点"
          placeholder="例如 朔州市平鲁区井坪镇某储煤场"
          rules={[{ required: true, message: '请输入交收地点' }, { max: 100, message: '交收地点不超过 100 字' }]}
        />
      </Col>
    </>
  );
}

/** 交收日期: a range of days from today on, with the form's cross-field rules. */
export function DeliveryDatesField({ rules, dependencies, extra }: { rules: Rule[]; dependencies?: string[]; extra?: ReactNode }) {
  return (
    <ProFormDateRangePicker
      name="deliveryDates"
      label="交收日期"
      dependencies={dependencies}
      rules={[{ required: true, message: '请选择交收开始和结束日期' }, ...rules]}
      fieldProps={{ format: DAY, placeholder: ['交收开始日期', '交收结束日期'], disabledDate: beforeToday, style: { width: '100%' } }}
      extra={extra}
    />
  );
}

export function TransportField() {
  return (
    <ProFormRadio.Group
      name="transport"
      label="运输方式"
      radioType="button"
      rules={[{ required: true, message: '请选择运输方式' }]}
      options={options(TRANSPORTS)}
    />
  );
}

export function PriceTypeField() {
  return <ProFormSelect name="priceType" label="价格类型" rules={[{ required: true, message: '请选择价格类型' }]} options={options(PRICE_TYPES)} />;
}

export function RemarkField() {
  return <ProFormTextArea name="remark" label="备注" placeholder="选填，如质量检验、结算方式等补充说明" fieldProps={{ maxLength: 500, showCount: true, rows: 3 }} />;
}

/** 保存草稿 / 提交审核, each busy while its own request runs and both locked meanwhile. */
export function SaveButtons({ sending, onSave }: { sending: null | 'draft' | 'submit'; onSave: (submit: boolean) => void }) {
  return (
    <div className="coalx-form-actions">
      <Button size="large" onClick={() => onSave(false)} loading={sending === 'draft'} disabled={sending !== null}>
        保存草稿
      </Button>
      <Button size="large" type="primary" onClick={() => onSave(true)} loading={sending === 'submit'} disabled={sending !== null}>
        提交审核
      </Button>
    </div>
  );
}
